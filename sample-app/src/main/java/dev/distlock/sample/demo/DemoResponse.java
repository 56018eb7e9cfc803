package dev.distlock.sample.demo;

import java.net.URI;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outcome of one {@link DemoRequest}.
 *
 * @param request what was sent
 * @param status the HTTP status, or {@code -1} if no response came
 * @param body the response body, or the failure's message if no response came
 * @param nanos how long the request took, seen from the client
 */
record DemoResponse(DemoRequest request, int status, String body, long nanos) {

	private static final JsonMapper json = JsonMapper.builder().build();

	/**
	 * Parses the body as JSON.
	 * @return the parsed body
	 * @throws JacksonException if the body is not JSON
	 */
	JsonNode json() {
		return json.readTree(this.body);
	}

	/**
	 * Whether the response is a problem of the given type.
	 * @param type the problem type URI
	 * @return whether the body is JSON whose {@code type} is that URI
	 */
	boolean isProblem(URI type) {
		try {
			return type.toString().equals(json().path("type").asString());
		}
		catch (JacksonException ex) {
			return false;
		}
	}

}
