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
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP contract of {@code /check-in-queue}: positions, repeated phone numbers, and
 * {@code 400} problem details that name the invalid fields.
 */
class CheckInApiTests {

	private static SampleInstances instances;

	private static URI base;

	@BeforeAll
	static void startInstance() {
		instances = TestCluster.start(1, RedisTestServers.shared(), TestDatabase.h2());
		base = instances.baseUri(0);
	}

	@AfterAll
	static void stopInstance() {
		instances.close();
	}

	@Test
	void repeatedPhoneGetsItsExistingPosition() {
		HttpResponse<String> first = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Ada", "+4930100001", "FEMALE"));
		HttpResponse<String> second = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Bea", "+4930100002", "FEMALE"));
		HttpResponse<String> repeated = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Ada", "+4930100001", "FEMALE"));
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Location")).hasValue("/check-in-queue/+4930100001");
		assertThat(SampleHttp.json(second).path("position").asInt())
			.isEqualTo(SampleHttp.json(first).path("position").asInt() + 1);
		assertThat(SampleHttp.json(second).path("ahead").asInt())
			.isEqualTo(SampleHttp.json(first).path("ahead").asInt() + 1);
		assertThat(repeated.statusCode()).isEqualTo(200);
		JsonNode ticket = SampleHttp.json(repeated);
		assertThat(ticket.path("position").asInt()).isEqualTo(SampleHttp.json(first).path("position").asInt());
		assertThat(ticket.path("alreadyQueued").asBoolean()).isTrue();
	}

	@Test
	void positionCanBeLookedUpByPhone() {
		SampleHttp.post(base, "/check-in-queue", SampleHttp.checkIn("Cai", "+4930100003", "MALE"));
		HttpResponse<String> found = SampleHttp.get(base, "/check-in-queue/+4930100003");
		assertThat(found.statusCode()).isEqualTo(200);
		assertThat(SampleHttp.json(found).path("gender").asString()).isEqualTo("MALE");
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930999999").statusCode()).isEqualTo(404);
	}

	@Test
	void invalidBodyIsRejectedNamingEveryInvalidField() {
		HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.jsonOf(Map.of("studentName", " ", "phone", "12", "arrivalDate", "2025-09-01")));
		assertProblem(response);
		JsonNode problem = SampleHttp.json(response);
		assertThat(problem.path("errors").findValuesAsString("field")).containsExactly("gender", "phone",
				"studentName");
		assertThat(problem.path("detail").asString()).isEqualTo("Invalid request: gender, phone, studentName");
	}

	@Test
	void unknownGenderIsRejectedNamingTheField() {
		HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Dan", "+4930100004", "OTHER"));
		assertProblem(response);
		JsonNode error = SampleHttp.json(response).path("errors").get(0);
		assertThat(error.path("field").asString()).isEqualTo("gender");
		assertThat(error.path("message").asString()).isEqualTo("must be one of [FEMALE, MALE]");
	}

	@Test
	void malformedDateIsRejectedNamingTheField() {
		HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue", SampleHttp.jsonOf(
				Map.of("studentName", "Eve", "phone", "+4930100005", "gender", "FEMALE", "arrivalDate", "2025-13-45")));
		assertProblem(response);
		assertThat(SampleHttp.json(response).path("errors").get(0).path("field").asString()).isEqualTo("arrivalDate");
	}

	@Test
	void bodyThatIsNotJsonIsRejected() {
		// Malformed on purpose (cut off after the first name), so it stays a literal.
		HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue", "{\"studentName\":");
		assertProblem(response);
		assertThat(SampleHttp.json(response).path("detail").asString()).isEqualTo("The request body is not valid JSON");
	}

	@Test
	void invalidCheckInGivesNoPosition() {
		SampleHttp.post(base, "/check-in-queue",
				SampleHttp.jsonOf(Map.of("studentName", "Fay", "phone", "+4930100006", "gender", "MALE")));
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930100006").statusCode()).isEqualTo(404);
	}

	private static void assertProblem(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(SampleHttp.json(response).path("status").asInt()).isEqualTo(400);
	}

}
