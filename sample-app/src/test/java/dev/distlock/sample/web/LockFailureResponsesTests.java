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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.web.LockProblemDetailsExceptionHandler;
import dev.distlock.web.LockProblemTypes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock failures as HTTP clients see them: {@code 409} when the lock stays busy beyond the
 * wait time (distlock's answer) or a write is refused as stale by the fence (the
 * sample's), {@code 503} when Redis is down (distlock's), all as problem details with
 * {@code Retry-After}; {@code 500} without it when the lease was lost. Runs on a
 * dedicated Redis server, which the last test stops.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LockFailureResponsesTests {

	private static final String NOT_ACQUIRED = "The lock this request needs was held by another caller for longer "
			+ "than the request could wait. Retry after 2 seconds.";

	private static RedisTestServer redis;

	private static SampleInstances instances;

	private static URI base;

	@BeforeAll
	static void startInstance() {
		redis = RedisTestServers.startDedicated();
		instances = TestCluster.start(1, redis, TestDatabase.h2(), "--sample.stock.lock-wait-time=200ms",
				"--sample.check-in.lock-wait-time=200ms", "--distlock.web.retry-after=2s");
		base = instances.baseUri(0);
	}

	@AfterAll
	static void stopInstanceAndRedis() {
		try {
			instances.close();
		}
		finally {
			redis.close();
		}
	}

	@Test
	@Order(1)
	void lockHeldBeyondTheWaitTimeAnswers409WithRetryAfter() {
		SampleHttp.put(base, "/skus/7/stock", SampleHttp.stock(5));
		LockClient locks = instances.bean(0, LockClient.class);
		try (LockHandle held = locks.lock("lock:sku:7")) {
			HttpResponse<String> response = SampleHttp.post(base, "/skus/7/stock/decrement");
			assertThat(response.statusCode()).isEqualTo(409);
			assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
			assertProblem(response, LockProblemTypes.LOCK_NOT_ACQUIRED, "Lock not acquired", NOT_ACQUIRED);
			assertThat(SampleHttp.json(response).path("lock").asString()).isEqualTo("stock");
		}
		assertThat(SampleHttp.post(base, "/skus/7/stock/decrement").statusCode()).isEqualTo(200);
		assertThat(SampleHttp.json(SampleHttp.get(base, "/skus/7/stock")).path("quantity").asLong()).isEqualTo(4);
	}

	@Test
	@Order(2)
	void busyCheckInQueueAnswers409() {
		try (LockHandle held = instances.bean(0, LockClient.class).lock("lock:check-in:FEMALE")) {
			HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue",
					SampleHttp.checkIn("Gia", "+4930200001", "FEMALE"));
			assertThat(response.statusCode()).isEqualTo(409);
			assertProblem(response, LockProblemTypes.LOCK_NOT_ACQUIRED, "Lock not acquired", NOT_ACQUIRED);
			assertThat(SampleHttp.json(response).path("lock").asString()).isEqualTo("check-in");
		}
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930200001").statusCode()).isEqualTo(404);
	}

	@Test
	@Order(3)
	void checkInRefusedByTheFenceAnswers409LockLost() {
		// As if a holder with a newer fencing token had written to the queue since this
		// request's
		// lock was granted (AbstractCheckInConcurrencyTests replays that with a real
		// stale holder).
		JdbcClient jdbc = instances.bean(0, JdbcClient.class);
		jdbc.sql("update queue_head set fence = ? where gender = 'MALE'").param(Long.MAX_VALUE).update();
		try {
			HttpResponse<String> response = SampleHttp.post(base, "/check-in-queue",
					SampleHttp.checkIn("Ike", "+4930200003", "MALE"));
			assertThat(response.statusCode()).isEqualTo(409);
			assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
			assertProblem(response, LockLostAdvice.LOCK_LOST, "Lock lost",
					"This request's lock expired while it was being processed and a newer holder has written since, "
							+ "so the request was refused and nothing was stored. Retry after 2 seconds.");
		}
		finally {
			jdbc.sql("update queue_head set fence = 0 where gender = 'MALE'").update();
		}
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930200003").statusCode()).isEqualTo(404);
	}

	@Test
	@Order(4)
	void leaseLostAfterTheWorkIsAServerErrorWithoutRetryAfter() throws Exception {
		// Provoking it over HTTP needs a lease to expire at an exact moment, so the
		// instance's handler is asked directly (lock-autoconfigure's
		// LockProblemDetailsMvcTests provokes a real one over HTTP).
		LockProblemDetailsExceptionHandler handler = instances.bean(0, LockProblemDetailsExceptionHandler.class);
		LockLeaseLostException failure = new LockLeaseLostException("lock:check-in:FEMALE", "check-in",
				Duration.ofSeconds(1), Duration.ofSeconds(3));
		ResponseEntity<ProblemDetail> response = handler.handleLockLeaseLost(failure, failure, Locale.ENGLISH);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
		assertThat(response.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
		assertThat(response.getBody()).isNotNull();
		assertThat(response.getBody().getType()).isEqualTo(LockProblemTypes.LOCK_LEASE_LOST);
		assertThat(response.getBody().getDetail()).doesNotContain("lock:check-in").contains("overlapped");
		assertThat(response.getBody().getProperties()).containsOnlyKeys("lock");
	}

	@Test
	@Order(5)
	void unreachableRedisAnswers503WithRetryAfter() {
		redis.stop();
		HttpResponse<String> decrement = SampleHttp.post(base, "/skus/7/stock/decrement");
		assertThat(decrement.statusCode()).isEqualTo(503);
		assertThat(decrement.headers().firstValue("Retry-After")).hasValue("2");
		assertProblem(decrement, LockProblemTypes.LOCK_UNAVAILABLE, "Lock service unavailable",
				"The lock service (Redis) is unavailable, so this request was not processed. Retry after 2 seconds.");
		HttpResponse<String> checkIn = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Hal", "+4930200002", "MALE"));
		assertThat(checkIn.statusCode()).isEqualTo(503);
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930200002").statusCode())
			.as("a check-in is never stored without its lock")
			.isEqualTo(404);
	}

	private static void assertProblem(HttpResponse<String> response, URI type, String title, String detail) {
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = SampleHttp.json(response);
		assertThat(problem.path("type").asString()).isEqualTo(type.toString());
		assertThat(problem.path("title").asString()).isEqualTo(title);
		assertThat(problem.path("status").asInt()).isEqualTo(response.statusCode());
		assertThat(problem.path("detail").asString()).isEqualTo(detail);
	}

}
