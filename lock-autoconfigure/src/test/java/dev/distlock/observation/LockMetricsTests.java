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

package dev.distlock.observation;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockMetrics} of a real {@link RedisLockClient}: meters tagged with the lock name
 * and never the key.
 */
class LockMetricsTests {

	private static final LockOptions REPORT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30), Duration.ZERO,
			"report");

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void acquisitionsAreTimedByNameAndOutcome() throws Exception {
		String key = TestRedis.uniqueKey("metrics");
		try (RedisLockClient client = client(redis); RedisLockClient other = client(redis)) {
			client.lock(key, REPORT).release();
			client.lock(key, REPORT).release();
			try (HeldLock held = HeldLock.elsewhere(other, key)) {
				assertThat(client.tryLock(key, REPORT)).isEmpty();
			}
			client.lock(key, REPORT.withName("other")).release();
		}
		assertThat(this.registry.get(LockMetrics.ACQUISITION)
			.tags("name", "report", "outcome", "acquired")
			.timer()
			.count()).isEqualTo(2);
		assertThat(this.registry.get(LockMetrics.ACQUISITION)
			.tags("name", "report", "outcome", "not_acquired")
			.timer()
			.count()).isEqualTo(1);
		assertThat(
				this.registry.get(LockMetrics.ACQUISITION).tags("name", "other", "outcome", "acquired").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get(LockMetrics.HOLD)
			.tags("name", "report", "outcome", "released", "error", "none")
			.timer()
			.count()).isEqualTo(2);
		assertThat(this.registry.getMeters()).extracting((meter) -> meter.getId().getName())
			.allMatch((name) -> name.startsWith("distlock."));
		assertThat(this.registry.getMeters()).flatExtracting((meter) -> meter.getId().getTags())
			.extracting((tag) -> tag.getKey())
			.containsOnly("name", "kind", "mode", "outcome", "error")
			.doesNotContain("key");
	}

	@Test
	void reentrantAcquisitionsAreNotCounted() {
		String key = TestRedis.uniqueKey("reentrant");
		try (RedisLockClient client = client(redis); LockHandle outer = client.lock(key, REPORT)) {
			client.lock(key, REPORT).release();
		}
		assertThat(this.registry.get(LockMetrics.ACQUISITION).timer().count()).isEqualTo(1);
	}

	@Test
	void activeHoldsAreCountedWhileHeld() {
		String key = TestRedis.uniqueKey("active");
		try (RedisLockClient client = client(redis)) {
			LockHandle handle = client.lock(key, REPORT);
			assertThat(this.registry.get(LockMetrics.HOLD_ACTIVE).tags("name", "report").longTaskTimer().activeTasks())
				.isEqualTo(1);
			handle.release();
			assertThat(this.registry.get(LockMetrics.HOLD_ACTIVE).tags("name", "report").longTaskTimer().activeTasks())
				.isZero();
		}
	}

	@Test
	void waitersAreGaugedByName() throws Exception {
		String key = TestRedis.uniqueKey("waiters");
		try (RedisLockClient client = client(redis); RedisLockClient other = client(redis)) {
			HeldLock held = HeldLock.elsewhere(other, key);
			CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
				.supplyAsync(() -> client.tryLock(key, REPORT.withWaitTime(Duration.ofSeconds(20))));
			await().until(() -> this.registry.find(LockMetrics.WAITERS).tags("name", "report").gauge() != null
					&& this.registry.get(LockMetrics.WAITERS).tags("name", "report").gauge().value() == 1);
			held.close();
			waiting.join().orElseThrow().release();
			assertThat(this.registry.get(LockMetrics.WAITERS).tags("name", "report").gauge().value()).isZero();
		}
	}

	@Test
	void lostLeasesAreCountedByName() {
		String key = TestRedis.uniqueKey("lost");
		try (RedisLockClient client = client(redis)) {
			LockHandle handle = client.lock(key, REPORT);
			redis.delete(key);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		}
		assertThat(this.registry.get(LockMetrics.LEASE_LOST).tags("name", "report").counter().count()).isEqualTo(1);
		assertThat(this.registry.get(LockMetrics.HOLD).tags("name", "report", "outcome", "lease_lost").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.find(LockMetrics.HOLD).tags("outcome", "released").timer()).isNull();
	}

	@Test
	void renewalsAreCounted() {
		String key = TestRedis.uniqueKey("renewed");
		try (RedisLockClient client = RedisLockClient.builder(redis)
			.renewalLease(Duration.ofMillis(300))
			.listener(new LockMetrics(this.registry))
			.build(); LockHandle handle = client.lock(key, LockOptions.renewing(Duration.ZERO))) {
			await().until(() -> this.registry.get(LockMetrics.RENEWALS).counter().count() >= 2);
		}
	}

	@Test
	void failedAcquisitionsAreTimedAsErrors() {
		try (RedisTestServer server = RedisTestServers.startDedicated()) {
			LettuceConnectionFactory factory = TestRedis.connectionFactory(server);
			try (RedisLockClient client = client(TestRedis.template(factory))) {
				server.stop();
				assertThatExceptionOfType(LockUnavailableException.class)
					.isThrownBy(() -> client.lock(TestRedis.uniqueKey("down"), REPORT));
			}
			finally {
				factory.destroy();
			}
		}
		assertThat(this.registry.get(LockMetrics.ACQUISITION)
			.tags("name", "report", "outcome", "error", "error", "LockUnavailableException")
			.timer()
			.count()).isEqualTo(1);
	}

	@Test
	void timersOfObservationsRecordedAsTimersAreLeftToThem() throws Exception {
		LockMetrics metrics = new LockMetrics(this.registry,
				Set.of(LockObservationDocumentation.ACQUISITION, LockObservationDocumentation.HOLD));
		String key = TestRedis.uniqueKey("observed");
		try (RedisLockClient client = RedisLockClient.builder(redis).listener(metrics).build();
				RedisLockClient other = RedisLockClient.builder(redis).build()) {
			LockHandle handle = client.lock(key, REPORT);
			assertThat(this.registry.find(LockMetrics.HOLD_ACTIVE).meters()).isEmpty();
			redis.delete(key);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
			try (HeldLock held = HeldLock.elsewhere(other, key)) {
				assertThat(client.tryLock(key, REPORT)).isEmpty();
			}
		}
		assertThat(this.registry.find(LockMetrics.ACQUISITION).meters()).isEmpty();
		assertThat(this.registry.find(LockMetrics.HOLD).meters()).isEmpty();
		assertThat(this.registry.find(LockMetrics.HOLD_ACTIVE).meters()).isEmpty();
		assertThat(this.registry.get(LockMetrics.LEASE_LOST).tags("name", "report").counter().count()).isEqualTo(1);
	}

	@Test
	void onlyTheTimersOfAnObservationNotRecordedAsTimersAreKept() {
		LockMetrics metrics = new LockMetrics(this.registry, Set.of(LockObservationDocumentation.HOLD));
		String key = TestRedis.uniqueKey("half-observed");
		try (RedisLockClient client = RedisLockClient.builder(redis).listener(metrics).build()) {
			client.lock(key, REPORT).release();
		}
		assertThat(this.registry.get(LockMetrics.ACQUISITION).tags("name", "report").timer().count()).isEqualTo(1);
		assertThat(this.registry.find(LockMetrics.HOLD).meters()).isEmpty();
		assertThat(this.registry.find(LockMetrics.HOLD_ACTIVE).meters()).isEmpty();
	}

	private RedisLockClient client(StringRedisTemplate template) {
		return RedisLockClient.builder(template).listener(new LockMetrics(this.registry)).build();
	}

}
