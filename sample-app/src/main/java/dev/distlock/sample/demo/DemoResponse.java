/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
