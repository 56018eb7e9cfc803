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
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockMetrics} of a real {@link RedisLockClient} tag every meter of a lock with
 * its kind and mode, and the timers of a semaphore's permits with its permits: the same
 * tag keys on every meter of a name, whatever the kind.
 */
class LockKindMetersTests {

	private static final LockOptions KINDS = new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withName("kinds");

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void timersAreTaggedWithTheKindAndModeOfEachHold() {
		try (RedisLockClient client = client()) {
			client.lock(TestRedis.uniqueKey("exclusive"), KINDS).release();
			client.lock(TestRedis.uniqueKey("read"), KINDS.withMode(LockMode.READ)).release();
			client.lock(TestRedis.uniqueKey("write"), KINDS.withMode(LockMode.WRITE)).release();
			client.lock(TestRedis.uniqueKey("permits"), KINDS.withPermits(5)).release();
		}
		for (String timer : new String[] { LockMetrics.ACQUISITION, LockMetrics.HOLD }) {
			assertThat(this.registry.get(timer).tags("kind", "exclusive", "mode", "exclusive").timer().count())
				.isEqualTo(1);
			assertThat(this.registry.get(timer).tags("kind", "read-write", "mode", "read").timer().count())
				.isEqualTo(1);
			assertThat(this.registry.get(timer).tags("kind", "read-write", "mode", "write").timer().count())
				.isEqualTo(1);
			assertThat(this.registry.get(timer)
				.tags("kind", "semaphore", "mode", "exclusive", "permits", "5")
				.timer()
				.count()).isEqualTo(1);
			assertThat(this.registry.get(timer).timers()).hasSize(4)
				.filteredOn((meter) -> meter.getId().getTag("permits") != null)
				.singleElement()
				.satisfies((meter) -> assertThat(meter.getId().getTag("kind")).isEqualTo("semaphore"));
		}
	}

	@Test
	void activeHoldsAreTaggedWhileHeld() {
		try (RedisLockClient client = client();
				LockHandle read = client.lock(TestRedis.uniqueKey("read"), KINDS.withMode(LockMode.READ));
				LockHandle permit = client.lock(TestRedis.uniqueKey("permit"), KINDS.withPermits(3))) {
			assertThat(this.registry.get(LockMetrics.HOLD_ACTIVE)
				.tags("kind", "read-write", "mode", "read")
				.longTaskTimer()
				.activeTasks()).isEqualTo(1);
			assertThat(this.registry.get(LockMetrics.HOLD_ACTIVE)
				.tags("kind", "semaphore", "mode", "exclusive", "permits", "3")
				.longTaskTimer()
				.activeTasks()).isEqualTo(1);
		}
	}

	@Test
	void waitersAndCallersThatGaveUpAreTaggedWithTheModeTheyAskedFor() throws Exception {
		String key = TestRedis.uniqueKey("waited");
		try (RedisLockClient client = client(); RedisLockClient other = RedisLockClient.builder(this.redis).build()) {
			LockHandle writer = other.lock(key, KINDS.withMode(LockMode.WRITE));
			assertThat(client.tryLock(key, KINDS.withMode(LockMode.READ))).isEmpty();
			assertThat(this.registry.get(LockMetrics.ACQUISITION)
				.tags("kind", "read-write", "mode", "read", "outcome", "not_acquired")
				.timer()
				.count()).isEqualTo(1);
			CompletableFuture<Optional<LockHandle>> reader = CompletableFuture.supplyAsync(
					() -> client.tryLock(key, KINDS.withMode(LockMode.READ).withWaitTime(Duration.ofSeconds(20))));
			await().until(() -> waiting("read") == 1);
			assertThat(this.registry.get(LockMetrics.WAITERS).gauges()).singleElement()
				.satisfies((gauge) -> assertThat(gauge.getId().getTag("kind")).isEqualTo("read-write"));
			writer.release();
			reader.join().orElseThrow().release();
			assertThat(waiting("read")).isZero();
		}
	}

	@Test
	void lostLeasesAreCountedByKindAndMode() {
		String key = TestRedis.uniqueKey("lost");
		try (RedisLockClient client = client()) {
			LockHandle handle = client.lock(key, KINDS.withMode(LockMode.WRITE));
			this.redis.delete(key);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		}
		assertThat(this.registry.get(LockMetrics.LEASE_LOST)
			.tags("name", "kinds", "kind", "read-write", "mode", "write")
			.counter()
			.count()).isEqualTo(1);
	}

	@Test
	void everyMeterOfALockHasTheKindAndModeTags() throws Exception {
		waitersAndCallersThatGaveUpAreTaggedWithTheModeTheyAskedFor();
		lostLeasesAreCountedByKindAndMode();
		activeHoldsAreTaggedWhileHeld();
		assertThat(this.registry.getMeters()).extracting(Meter::getId)
			.filteredOn((id) -> !id.getName().equals(LockMetrics.RENEWALS))
			.hasSizeGreaterThan(5)
			.allSatisfy((id) -> assertThat(id.getTags()).extracting((tag) -> tag.getKey())
				.contains("name", "kind", "mode"));
	}

	private double waiting(String mode) {
		Meter gauge = this.registry.find(LockMetrics.WAITERS).tags("name", "kinds", "mode", mode).gauge();
		return (gauge != null) ? this.registry.get(LockMetrics.WAITERS).tags("mode", mode).gauge().value() : -1;
	}

	private RedisLockClient client() {
		return RedisLockClient.builder(this.redis).listener(new LockMetrics(this.registry)).build();
	}

}
