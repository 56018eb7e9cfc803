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

package dev.distlock.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;

/**
 * Calls actuator endpoints of an application on a local port.
 */
final class ActuatorHttp {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	ActuatorHttp(int port) {
		this.port = port;
	}

	Response get(String path) {
		return send(request(path).GET());
	}

	Response getText(String path) {
		return send(request(path).setHeader("Accept", "text/plain").GET());
	}

	Response delete(String path) {
		return send(request(path).DELETE());
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Accept", "application/json");
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An HTTP response.
	 *
	 * @param status the status code
	 * @param body the body
	 */
	record Response(int status, String body) {

		<T> T json(String path) {
			return JsonPath.read(this.body, path);
		}

		boolean has(String path) {
			try {
				return JsonPath.read(this.body, path) != null;
			}
			catch (PathNotFoundException ex) {
				return false;
			}
		}

	}

}
