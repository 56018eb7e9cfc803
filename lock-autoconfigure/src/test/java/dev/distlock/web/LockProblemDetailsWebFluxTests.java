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

package dev.distlock.web;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.web.LockedWebApplication.LockedWork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lock failures as a WebFlux application answers them, with nothing but distlock's
 * auto-configuration: the same problem details as in Spring MVC, for a lock held in Redis
 * by another instance and for a lease that ran out while another instance took the lock.
 */
class LockProblemDetailsWebFluxTests {

	@Test
	void lockHeldByAnotherInstanceAnswers409WithRetryAfter() {
		String sku = UUID.randomUUID().toString();
		LockedWebApplication.reactive(RedisTestServers.shared()).run((context) -> {
			try (OtherInstance other = new OtherInstance(RedisTestServers.shared(), "");
					LockHandle held = other.lock("web:stock:" + sku)) {
				WebTestClient.bindToApplicationContext(context)
					.build()
					.post()
					.uri("/stock/{sku}", sku)
					.exchange()
					.expectStatus()
					.isEqualTo(409)
					.expectHeader()
					.contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectHeader()
					.valueEquals(HttpHeaders.RETRY_AFTER, "1")
					.expectBody()
					.json("""
							{
							  "type": "https://distlock.dev/problems/lock-not-acquired",
							  "title": "Lock not acquired",
							  "status": 409,
							  "detail": "The lock this request needs was held by another caller for longer than the request could wait. Retry after 1 second.",
							  "instance": "/stock/%s",
							  "lock": "stock"
							}"""
						.formatted(sku), JsonCompareMode.LENIENT)
					.jsonPath("$.key")
					.doesNotExist()
					.jsonPath("$.waitedMillis")
					.value(Integer.class, (waited) -> assertThat(waited).isBetween(100, 10_000));
			}
			assertThat(context.getBean(LockedWork.class).runs()).as("runs without the lock").isZero();
		});
	}

	@Test
	void leaseLostToAnotherInstanceAnswers500WithoutRetryAfter() {
		String id = UUID.randomUUID().toString();
		LockedWebApplication.reactive(RedisTestServers.shared()).run((context) -> {
			try (OtherInstance other = new OtherInstance(RedisTestServers.shared(), "")) {
				LockHandle[] taken = new LockHandle[1];
				context.getBean(LockedWork.class).during(() -> {
					LockHandle hold = LockContext.current().orElseThrow();
					await().atMost(Duration.ofSeconds(5)).until(hold::isLeaseLost);
					taken[0] = other.lock("web:report:" + id);
				});
				WebTestClient.bindToApplicationContext(context)
					.build()
					.post()
					.uri("/reports/{id}", id)
					.exchange()
					.expectStatus()
					.isEqualTo(500)
					.expectHeader()
					.contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectHeader()
					.doesNotExist(HttpHeaders.RETRY_AFTER)
					.expectBody()
					.json("""
							{
							  "type": "https://distlock.dev/problems/lock-lease-lost",
							  "title": "Lock lease lost",
							  "status": 500,
							  "detail": "This request was processed, but its lock expired before it was released, so its work may have overlapped with another holder's. Check the outcome before retrying.",
							  "instance": "/reports/%s",
							  "lock": "report"
							}"""
						.formatted(id), JsonCompareMode.STRICT);
				assertThat(taken[0].isLeaseLost()).isFalse();
				taken[0].release();
			}
		});
	}

}
