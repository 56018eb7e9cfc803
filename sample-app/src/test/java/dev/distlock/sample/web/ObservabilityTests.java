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

package dev.distlock.sample.web;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.sample.redis.EmbeddedRedisConfiguration;
import dev.distlock.sample.support.SampleHttp;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operator of the sample sees: the locks this instance holds at
 * /actuator/distlock, lock meters in Prometheus format (one timer each for lock wait and
 * hold time, with the histogram buckets that percentile queries read), and the lock
 * health. On the embedded Redis, as {@code spring-boot:test-run} runs the sample.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.orders.close-cron=-")
@Import(EmbeddedRedisConfiguration.class)
class ObservabilityTests {

	@LocalServerPort
	private int port;

	@Autowired
	private LockClient lockClient;

	@Test
	void heldLocksAreListedWithTheirNameAndFencingToken() {
		URI base = base();
		try (LockHandle held = this.lockClient.lock("lock:report:nightly",
				LockOptions.renewing(Duration.ZERO).withName("nightly-report"))) {
			// Asked first: a lock acquired with SET NX PX is issued its token when first
			// asked, and is listed with 0 until then.
			long token = held.fencingToken();
			JsonNode locks = SampleHttp.json(SampleHttp.get(base, "/actuator/distlock")).path("locks");
			assertThat(locks.isArray()).isTrue();
			JsonNode lock = locks.get(0);
			assertThat(lock.path("name").asString()).isEqualTo("nightly-report");
			assertThat(lock.path("key").asString()).isEqualTo("lock:report:nightly");
			assertThat(lock.path("fencingToken").asLong()).isEqualTo(token);
			assertThat(lock.path("autoRenewing").asBoolean()).isTrue();
			JsonNode state = SampleHttp.json(SampleHttp.get(base, "/actuator/distlock/lock:report:nightly"));
			assertThat(state.path("held").asBoolean()).isTrue();
			assertThat(state.path("heldByThisInstance").asBoolean()).isTrue();
		}
		assertThat(SampleHttp.json(SampleHttp.get(base, "/actuator/distlock")).path("locks").size()).isZero();
	}

	@Test
	void lockMetersAreScrapedByNameNeverByKey() {
		URI base = base();
		SampleHttp.put(base, "/skus/77/stock", SampleHttp.stock(3));
		SampleHttp.post(base, "/skus/77/stock/decrement");
		String scrape = SampleHttp.get(base, "/actuator/prometheus").body();
		assertThat(scrape)
			.containsPattern("distlock_acquisition_seconds_count\\{[^}]*name=\"stock\"[^}]*outcome=\"acquired\"")
			.containsPattern("distlock_acquisition_seconds_bucket\\{[^}]*name=\"stock\"[^}]*le=\"\\+Inf\"")
			.containsPattern(
					"distlock_hold_seconds_bucket\\{[^}]*name=\"stock\"[^}]*outcome=\"released\"[^}]*le=\"\\+Inf\"")
			.doesNotContain("distlock_acquire_seconds", "distlock_execution_seconds");
		assertThat(scrape).doesNotContain("lock:sku:77");
	}

	@Test
	void lockHealthIsUp() {
		JsonNode health = SampleHttp.json(SampleHttp.get(base(), "/actuator/health/distlock"));
		assertThat(health.path("status").asString()).isEqualTo("UP");
	}

	private URI base() {
		return URI.create("http://127.0.0.1:" + this.port);
	}

}
