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

package dev.distlock.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Blocking HTTP calls to an instance of the sample, with {@link HttpClient}.
 */
public final class SampleHttp {

	private static final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private static final JsonMapper json = JsonMapper.builder().build();

	private SampleHttp() {
	}

	/**
	 * {@code POST} without a body.
	 * @param base the instance
	 * @param path the path and query
	 * @return the response
	 */
	public static HttpResponse<String> post(URI base, String path) {
		return send(request(base, path).POST(BodyPublishers.noBody()));
	}

	/**
	 * {@code POST} with a JSON body.
	 * @param base the instance
	 * @param path the path
	 * @param body the JSON text
	 * @return the response
	 */
	public static HttpResponse<String> post(URI base, String path, String body) {
		return send(request(base, path).header("Content-Type", "application/json").POST(BodyPublishers.ofString(body)));
	}

	/**
	 * {@code PUT} with a JSON body.
	 * @param base the instance
	 * @param path the path
	 * @param body the JSON text
	 * @return the response
	 */
	public static HttpResponse<String> put(URI base, String path, String body) {
		return send(request(base, path).header("Content-Type", "application/json").PUT(BodyPublishers.ofString(body)));
	}

	/**
	 * {@code GET}.
	 * @param base the instance
	 * @param path the path
	 * @return the response
	 */
	public static HttpResponse<String> get(URI base, String path) {
		return send(request(base, path).GET());
	}

	/**
	 * Parses a JSON response body.
	 * @param response the response
	 * @return the parsed body
	 */
	public static JsonNode json(HttpResponse<String> response) {
		return json.readTree(response.body());
	}

	/**
	 * Writes a request body as JSON.
	 * @param value the body, such as a map of field names to values
	 * @return the JSON text
	 */
	public static String jsonOf(Object value) {
		return json.writeValueAsString(value);
	}

	/**
	 * A check-in body.
	 * @param name the student's name
	 * @param phone the phone number
	 * @param gender {@code FEMALE} or {@code MALE}
	 * @return the JSON text
	 */
	public static String checkIn(String name, String phone, String gender) {
		return jsonOf(Map.of("studentName", name, "phone", phone, "gender", gender, "arrivalDate", "2025-09-01"));
	}

	/**
	 * A stock update body.
	 * @param quantity the new stock
	 * @return the JSON text
	 */
	public static String stock(long quantity) {
		return jsonOf(Map.of("quantity", quantity));
	}

	private static HttpRequest.Builder request(URI base, String path) {
		return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return client.send(request.build(), BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
