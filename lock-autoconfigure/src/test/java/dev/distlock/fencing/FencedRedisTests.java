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

package dev.distlock.fencing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.observation.FencedWriteMetrics;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Fenced writes to data in Redis, on a {@code redis-server} of its own (the locks are on
 * the shared test server), and on the locks' own server: newer writes applied with their
 * token beside the data, stale ones refused (and counted) with the data left as the next
 * holder wrote it, and locked increments that count exactly.
 */
class FencedRedisTests {

	private static RedisServerProcess dataServer;

	private FencingLocks locks;

	private LettuceConnectionFactory dataConnections;

	private StringRedisTemplate data;

	private SimpleMeterRegistry meters;

	private FencedRedis fencedRedis;

	@BeforeAll
	static void startDataServer() {
		dataServer = RedisServerProcess.startOnFreePort();
	}

	@AfterAll
	static void stopDataServer() {
		dataServer.close();
	}

	@BeforeEach
	void start() {
		this.locks = new FencingLocks();
		this.dataConnections = TestRedis.connectionFactory(dataServer);
		this.data = TestRedis.template(this.dataConnections);
		this.meters = new SimpleMeterRegistry();
		this.fencedRedis = new FencedRedis(this.data, new FencedWriteMetrics(this.meters));
	}

	@AfterEach
	void stop() {
		this.dataConnections.destroy();
		this.locks.close();
	}

	@Test
	void setWritesTheValueAndKeepsTheTokenBesideIt() {
		String key = TestRedis.uniqueKey("stock");
		LockHandle hold = this.locks.hold("stock");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			this.fencedRedis.set(key, "7");
			this.fencedRedis.set(key, "8");
		}
		finally {
			hold.release();
		}
		assertThat(this.data.opsForValue().get(key)).isEqualTo("8");
		assertThat(this.data.opsForValue().get(FencedRedis.fenceKey(key)))
			.isEqualTo(Long.toString(hold.fencingToken()));
	}

	@Test
	void staleSetIsRefusedCountedAndLeavesTheNextHoldersValue() {
		String key = TestRedis.uniqueKey("stock");
		List<LockHandle> holds = this.locks.pausedHoldAndNext("stock");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		this.fencedRedis.under(next).set(key, "next");
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.fencedRedis.under(paused).set(key, "paused"))
			.satisfies((refusal) -> {
				assertThat(refusal.getStore()).isEqualTo("redis");
				assertThat(refusal.getTarget()).isEqualTo("key '" + key + "'");
				assertThat(refusal.getFencingToken()).isEqualTo(paused.fencingToken());
				assertThat(refusal.getStoredFencingToken()).isEqualTo(next.fencingToken());
				assertThat(refusal.getLockName()).isEqualTo("stock");
			});
		assertThat(this.data.opsForValue().get(key)).isEqualTo("next");
		assertThat(this.data.opsForValue().get(FencedRedis.fenceKey(key)))
			.isEqualTo(Long.toString(next.fencingToken()));
		assertThat(refusals("stock")).isEqualTo(1.0);
		next.release();
		paused.release();
	}

	@Test
	void hashFieldsCarryATokenEach() {
		String key = TestRedis.uniqueKey("stock");
		List<LockHandle> holds = this.locks.pausedHoldAndNext("stock");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		this.fencedRedis.under(next).putHashField(key, "sku:25", "next");
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.fencedRedis.under(paused).putHashField(key, "sku:25", "paused"))
			.satisfies((refusal) -> assertThat(refusal.getTarget()).isEqualTo("field 'sku:25' of hash '" + key + "'"));
		this.fencedRedis.under(paused).putHashField(key, "sku:26", "paused");
		assertThat(this.data.<String, String>opsForHash().entries(key)).containsEntry("sku:25", "next")
			.containsEntry("sku:26", "paused")
			.hasSize(2);
		assertThat(this.data.<String, String>opsForHash().entries(FencedRedis.fenceKey(key)))
			.containsEntry("sku:25", Long.toString(next.fencingToken()))
			.containsEntry("sku:26", Long.toString(paused.fencingToken()));
		assertThat(refusals("stock")).isEqualTo(1.0);
		next.release();
		paused.release();
	}

	@Test
	void staleIncrementIsRefusedAndTheCountKept() {
		String key = TestRedis.uniqueKey("stock");
		List<LockHandle> holds = this.locks.pausedHoldAndNext("stock");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		assertThat(this.fencedRedis.under(next).increment(key, 5)).isEqualTo(5);
		assertThat(this.fencedRedis.under(next).increment(key, -2)).isEqualTo(3);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.fencedRedis.under(paused).increment(key, 100));
		assertThat(this.data.opsForValue().get(key)).isEqualTo("3");
		next.release();
		paused.release();
	}

	/**
	 * Four threads increment one key 50 times each, each increment under the key's lock
	 * (auto-renewed, taken again for every increment): the count is exact and no write is
	 * refused.
	 */
	@Test
	void lockedIncrementsCountExactly() throws Exception {
		String key = TestRedis.uniqueKey("counter");
		String lockKey = TestRedis.uniqueKey("lock:counter");
		int threads = 4;
		int increments = 50;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(executor.submit(() -> {
					for (int i = 0; i < increments; i++) {
						LockHandle hold = this.locks.client.lock(lockKey,
								LockOptions.renewing(Duration.ofSeconds(20)).withName("counter"));
						try (LockContext.Scope scope = LockContext.enter(hold)) {
							this.fencedRedis.increment(key, 1);
						}
						finally {
							hold.release();
						}
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.data.opsForValue().get(key)).isEqualTo(Integer.toString(threads * increments));
		assertThat(refusals("counter")).isZero();
	}

	@Test
	void writesOnTheRedisOfTheLocks() {
		LettuceConnectionFactory lockConnections = TestRedis.connectionFactory(RedisTestServers.shared());
		try {
			StringRedisTemplate lockRedis = TestRedis.template(lockConnections);
			FencedRedis onLockRedis = new FencedRedis(lockConnections);
			String key = TestRedis.uniqueKey("stock");
			List<LockHandle> holds = this.locks.pausedHoldAndNext("stock");
			onLockRedis.under(holds.get(1)).set(key, "next");
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> onLockRedis.under(holds.get(0)).set(key, "paused"));
			assertThat(lockRedis.opsForValue().get(key)).isEqualTo("next");
			holds.forEach(LockHandle::release);
		}
		finally {
			lockConnections.destroy();
		}
	}

	@Test
	void writeOutsideALockedMethodFailsAndWritesNothing() {
		String key = TestRedis.uniqueKey("stock");
		assertThatIllegalStateException().isThrownBy(() -> this.fencedRedis.set(key, "7"))
			.withMessageContaining("No distributed lock is held on this thread")
			.withMessageContaining("@DistributedLock");
		assertThat(this.data.hasKey(key)).isFalse();
	}

	@Test
	void writeAfterTheLeaseIsLostIsNotSent() {
		String key = TestRedis.uniqueKey("stock");
		LockHandle hold = this.locks.client.lock(TestRedis.uniqueKey("stock"),
				new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("stock"));
		await().atMost(Duration.ofSeconds(5)).until(hold::isLeaseLost);
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			assertThatExceptionOfType(LeaseLostBeforeWriteException.class)
				.isThrownBy(() -> this.fencedRedis.increment(key, 1))
				.withMessageContaining("is lost")
				.withMessageContaining("key '" + key + "'");
		}
		assertThat(this.data.hasKey(key)).isFalse();
		assertThat(this.data.hasKey(FencedRedis.fenceKey(key))).isFalse();
	}

	@Test
	void tokensAreKeptInTheHashSlotOfTheData() {
		assertThat(FencedRedis.fenceKey("stock:25")).isEqualTo("{stock:25}:fence");
		assertThat(FencedRedis.fenceKey("{user:1}:cart")).isEqualTo("{user:1}:cart:fence");
		assertThat(FencedRedis.fenceKey("a{b")).isEqualTo("{a{b}:fence");
		for (String key : List.of("stock:25", "{user:1}:cart", "a{b")) {
			assertThat(ClusterSlotHashUtil.calculateSlot(FencedRedis.fenceKey(key))).as(key)
				.isEqualTo(ClusterSlotHashUtil.calculateSlot(key));
		}
		for (String key : List.of("a}b", "{}x")) {
			assertThatIllegalArgumentException().isThrownBy(() -> FencedRedis.fenceKey(key))
				.withMessageContaining("give it a hash tag");
		}
	}

	@Test
	void scriptsAreResourcesOfANativeImage() {
		RuntimeHints hints = new RuntimeHints();
		new FencedRedis.FencedRedisRuntimeHints().registerHints(hints, getClass().getClassLoader());
		for (String script : List.of("set.lua", "hash-put.lua", "increment.lua")) {
			assertThat(RuntimeHintsPredicates.resource().forResource("dev/distlock/fencing/" + script)).as(script)
				.accepts(hints);
		}
	}

	private double refusals(String name) {
		Counter counter = this.meters.find(FencedWriteMetrics.REFUSED).tags("name", name, "store", "redis").counter();
		return (counter != null) ? counter.count() : 0;
	}

}
