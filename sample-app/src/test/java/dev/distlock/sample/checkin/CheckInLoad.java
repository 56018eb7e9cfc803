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

package dev.distlock.sample.checkin;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.Concurrently;
import dev.distlock.sample.support.SampleHttp;

/**
 * The concurrent load of scenario 2: new students of both genders check in at the same
 * time, every gender's requests spread over every instance. Shared by the tests that
 * expect unique positions and by the one that expects duplicates.
 */
final class CheckInLoad {

	private CheckInLoad() {
	}

	/**
	 * Sends the check-ins and reads the queues back from the database.
	 * @param instances the instances, sharing Redis and the database
	 * @param perGender how many students of each gender check in
	 * @param threads how many requests are in flight at once
	 * @return the responses and the rows
	 * @throws Exception if a request fails
	 */
	static Result run(SampleInstances instances, int perGender, int threads) throws Exception {
		List<HttpResponse<String>> responses = Concurrently.run(2 * perGender, threads, (i) -> {
			String gender = (i % 2 == 0) ? "FEMALE" : "MALE";
			URI instance = instances.baseUri((i / 2) % instances.size());
			return SampleHttp.post(instance, "/check-in-queue",
					SampleHttp.checkIn("Student " + i, String.format("+4930%07d", i), gender));
		});
		JdbcClient jdbc = instances.bean(0, JdbcClient.class);
		return new Result(responses, positions(jdbc, Gender.FEMALE), positions(jdbc, Gender.MALE));
	}

	private static List<Integer> positions(JdbcClient jdbc, Gender gender) {
		return jdbc.sql("select queue_position from check_in where gender = ? order by queue_position")
			.param(gender.name())
			.query(Integer.class)
			.list();
	}

	/**
	 * What the load left behind.
	 *
	 * @param responses every response, in request order
	 * @param female the positions of the female queue in the database, sorted
	 * @param male the positions of the male queue in the database, sorted
	 */
	record Result(List<HttpResponse<String>> responses, List<Integer> female, List<Integer> male) {

		List<Integer> statuses() {
			return this.responses.stream().map(HttpResponse::statusCode).toList();
		}

		List<Integer> answeredPositions(Gender gender) {
			return this.responses.stream()
				.map(SampleHttp::json)
				.filter((ticket) -> ticket.path("gender").asString().equals(gender.name()))
				.map((ticket) -> ticket.path("position").asInt())
				.sorted()
				.toList();
		}

	}

}
