package dev.distlock.sample.web;

import java.net.URI;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import tools.jackson.databind.JsonNode;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock failures as HTTP clients see them: {@code 409} when the lock stays busy beyond the
 * wait time or a write is refused as stale by the fence, {@code 503} when Redis is down,
 * all as problem details with {@code Retry-After}. Runs on a dedicated Redis server,
 * which the last test stops.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LockFailureResponsesTests {

	private static RedisTestServer redis;

	private static SampleInstances instances;

	private static URI base;

	@BeforeAll
	static void startInstance() {
		redis = RedisTestServers.startDedicated();
		instances = TestCluster.start(1, redis, TestDatabase.h2(), "--sample.stock.lock-wait-time=200ms",
				"--sample.check-in.lock-wait-time=200ms", "--sample.lock-failure.retry-after=2s");
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
		SampleHttp.put(base, "/skus/7/stock", "{\"quantity\":5}");
		LockClient locks = instances.bean(0, LockClient.class);
		try (LockHandle held = locks.lock("lock:sku:7")) {
			HttpResponse<String> response = SampleHttp.post(base, "/skus/7/stock/decrement");
			assertThat(response.statusCode()).isEqualTo(409);
			assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
			assertProblem(response, LockFailureAdvice.LOCK_NOT_ACQUIRED, "Resource busy");
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
			assertProblem(response, LockFailureAdvice.LOCK_NOT_ACQUIRED, "Resource busy");
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
			assertProblem(response, LockFailureAdvice.LOCK_LOST, "Lock lost");
		}
		finally {
			jdbc.sql("update queue_head set fence = 0 where gender = 'MALE'").update();
		}
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930200003").statusCode()).isEqualTo(404);
	}

	@Test
	@Order(4)
	void unreachableRedisAnswers503WithRetryAfter() {
		redis.stop();
		HttpResponse<String> decrement = SampleHttp.post(base, "/skus/7/stock/decrement");
		assertThat(decrement.statusCode()).isEqualTo(503);
		assertThat(decrement.headers().firstValue("Retry-After")).hasValue("2");
		assertProblem(decrement, LockFailureAdvice.LOCK_UNAVAILABLE, "Lock service unavailable");
		HttpResponse<String> checkIn = SampleHttp.post(base, "/check-in-queue",
				SampleHttp.checkIn("Hal", "+4930200002", "MALE"));
		assertThat(checkIn.statusCode()).isEqualTo(503);
		assertThat(SampleHttp.get(base, "/check-in-queue/+4930200002").statusCode())
			.as("a check-in is never stored without its lock")
			.isEqualTo(404);
	}

	private static void assertProblem(HttpResponse<String> response, URI type, String title) {
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = SampleHttp.json(response);
		assertThat(problem.path("type").asString()).isEqualTo(type.toString());
		assertThat(problem.path("title").asString()).isEqualTo(title);
		assertThat(problem.path("status").asInt()).isEqualTo(response.statusCode());
		assertThat(problem.path("detail").asString()).contains("Retry after 2 second(s)");
	}

}
