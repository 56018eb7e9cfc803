package dev.distlock.sample.demo;

import java.net.URI;

/**
 * The outcome of one {@link DemoRequest}.
 *
 * @param request what was sent
 * @param status the HTTP status, or {@code -1} if no response came
 * @param body the response body, or the failure's message if no response came
 * @param nanos how long the request took, seen from the client
 */
record DemoResponse(DemoRequest request, int status, String body, long nanos) {

	/**
	 * Whether the response is a problem of the given type.
	 * @param type the problem type URI
	 * @return whether the body names that type
	 */
	boolean isProblem(URI type) {
		return this.body.contains("\"" + type + "\"");
	}

}
