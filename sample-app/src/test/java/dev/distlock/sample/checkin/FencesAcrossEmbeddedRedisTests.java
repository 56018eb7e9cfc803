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

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.redis.EmbeddedRedisConfiguration;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database that outlives the embedded Redis, as with the {@code mariadb} and
 * {@code postgres} profiles: the next start's embedded Redis is new and empty, yet its
 * fencing tokens follow the server clock, so they exceed the fences the previous run left
 * in the database and the check-ins are accepted without resetting anything.
 */
class FencesAcrossEmbeddedRedisTests {

	@Test
	void newEmptyEmbeddedRedisGrantsTokensAboveThePreviousRunsFences() throws Exception {
		TestDatabase database = TestDatabase.h2();
		// The in-memory database lives as long as a connection to it is open.
		try (Connection keepAlive = DriverManager.getConnection(database.url(), database.username(),
				database.password())) {
			try (SampleInstances first = start(database)) {
				for (int i = 1; i <= 3; i++) {
					assertThat(checkIn(first, "+49301000" + i).statusCode()).isEqualTo(201);
				}
			}
			try (SampleInstances second = start(database)) {
				HttpResponse<String> response = checkIn(second, "+4930100004");
				assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
				assertThat(SampleHttp.json(response).path("position").asInt()).isEqualTo(4);
			}
		}
	}

	private static SampleInstances start(TestDatabase database) {
		// No spring.data.redis.*: each start runs its own, new embedded Redis, as
		// spring-boot:test-run does.
		List<String> arguments = new ArrayList<>(database.arguments());
		arguments.addAll(List.of("--sample.orders.close-cron=-", "--spring.main.banner-mode=off"));
		return SampleInstances.start(1, (builder) -> builder.sources(EmbeddedRedisConfiguration.class), arguments);
	}

	private static HttpResponse<String> checkIn(SampleInstances instances, String phone) {
		return SampleHttp.post(instances.baseUri(0), "/check-in-queue", SampleHttp.checkIn("Kim", phone, "FEMALE"));
	}

}
