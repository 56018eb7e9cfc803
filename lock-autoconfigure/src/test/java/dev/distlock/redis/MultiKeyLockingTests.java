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

package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.MultiLockHandle;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.RedisCommandCounts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Several keys locked together on a real Redis server, all or nothing: in one script when
 * all are free, else key by key in one global order within one wait; two clients stand
 * for two processes.
 */
class MultiKeyLockingTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private final RecordingLockListener listener = new RecordingLockListener();

	private LockFixture here;

	private LockFixture there;

	private String a;

	private String b;

	@BeforeEach
	void start() {
		this.here = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), this.listener);
		this.there = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
		// One hash tag: the lock order (by slot, then by key) is then a, b.
		String base = "{" + TestRedis.uniqueKey("multi") + "}";
		this.a = base + ":a";
		this.b = base + ":b";
	}

	@AfterEach
	void stop() {
		this.here.close();
		this.there.close();
	}

	@Test
	void oneKeyHeldElsewhereMeansNoneIsTakenAndNothingIsLeftInRedis() {
		try (LockHandle heldThere = this.there.client.lock(this.b, NO_WAIT)) {
			assertThat(this.here.client.tryLock(List.of(this.a, this.b), NO_WAIT)).isEmpty();
			assertThat(this.here.redis.hasKey(this.a)).isFalse();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.here.client.lock(List.of(this.b, this.a), NO_WAIT))
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(this.b));
			assertThat(this.here.redis.hasKey(this.a)).isFalse();
			assertThat(this.here.redis.opsForValue().get(this.b)).isNotNull();
		}
	}

	@Test
	void freeKeysOfOneSlotAreTakenInOneScriptWithATokenEach() {
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(30))) {
			LockOptions fixed = new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30));
			fixture.client.lock("warm-up", fixed).release();
			long before = RedisCommandCounts.calls(fixture.redis, "evalsha");
			LockHandle held = fixture.client.lock(List.of("k3", "k1", "k2"), fixed);
			assertThat(RedisCommandCounts.calls(fixture.redis, "evalsha") - before).as("round trips to lock 3 keys")
				.isEqualTo(1);
			assertThat(held).isInstanceOf(MultiLockHandle.class);
			List<String> keys = held.keys();
			assertThat(keys).containsExactlyInAnyOrder("k1", "k2", "k3");
			for (int i = 1; i < keys.size(); i++) {
				assertThat(held.fencingToken(keys.get(i))).isGreaterThan(held.fencingToken(keys.get(i - 1)));
			}
			long last = held.fencingToken(keys.get(2));
			held.release();
			assertThat(fixture.redis.hasKey("k1") || fixture.redis.hasKey("k2") || fixture.redis.hasKey("k3"))
				.isFalse();
			try (LockHandle next = fixture.client.lock(List.of("k1"), fixed)) {
				assertThat(next.fencingToken("k1")).isGreaterThan(last);
			}
		}
	}

	@Test
	void oppositeOrdersInTwoProcessesNeverDeadlock() throws Exception {
		int threads = 8;
		int iterations = 50;
		long[] balances = new long[2];
		HoldLog log = new HoldLog();
		LockOptions options = LockOptions.renewing(Duration.ofMinutes(1));
		ConcurrentRunner.run(threads, iterations, (thread) -> {
			RedisLockClient client = (thread % 4 < 2) ? this.here.client : this.there.client;
			int from = thread % 2;
			List<String> keys = (from == 0) ? List.of(this.a, this.b) : List.of(this.b, this.a);
			try (LockHandle held = client.lock(keys, options)) {
				long start = System.nanoTime();
				long debit = balances[from];
				long credit = balances[1 - from];
				Thread.yield();
				balances[from] = debit - 1;
				balances[1 - from] = credit + 1;
				log.record(start, System.nanoTime());
			}
		});
		log.assertSerial(threads * iterations);
		assertThat(balances).containsExactly(0, 0);
		assertThat(this.here.redis.hasKey(this.a) || this.here.redis.hasKey(this.b)).isFalse();
	}

	@Test
	void heldKeyReleasedWithinTheWaitGivesTheCallerBoth() throws Exception {
		LockHandle heldThere = this.there.client.lock(this.b, NO_WAIT);
		CompletableFuture<LockHandle> both = CompletableFuture.supplyAsync(() -> this.here.client
			.lock(List.of(this.b, this.a), new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30))));
		await("a taken in order while b is awaited").until(() -> this.here.redis.hasKey(this.a));
		heldThere.release();
		LockHandle held = both.get(10, TimeUnit.SECONDS);
		assertThat(held.keys()).containsExactlyInAnyOrder(this.a, this.b);
		CompletableFuture.runAsync(held::release).get(10, TimeUnit.SECONDS);
		assertThat(this.here.redis.hasKey(this.a) || this.here.redis.hasKey(this.b)).isFalse();
	}

	@Test
	void heldKeyKeptBeyondTheWaitLeavesTheCallerNoneAndReleasesWhatItTook() {
		try (LockHandle heldThere = this.there.client.lock(this.b, NO_WAIT)) {
			Optional<LockHandle> both = this.here.client.tryLock(List.of(this.a, this.b),
					new LockOptions(Duration.ofMillis(300), Duration.ofSeconds(30)));
			assertThat(both).isEmpty();
			assertThat(this.here.redis.hasKey(this.a)).isFalse();
			assertThat(this.there.client.tryLock(this.a, NO_WAIT)).hasValueSatisfying(LockHandle::release);
		}
	}

	@Test
	void renewalKeepsEveryKey() {
		try (LockFixture renewing = LockFixture.start(RedisTestServers.shared(), Duration.ofMillis(300),
				this.listener)) {
			long start = System.nanoTime();
			LockHandle held = renewing.client.lock(List.of(this.a, this.b), LockOptions.renewing(Duration.ZERO));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.listener.renewedLocks() >= 8);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(300));
			assertThat(held.isLeaseLost()).isFalse();
			assertThat(renewing.redis.getExpire(this.a, TimeUnit.MILLISECONDS)).isPositive();
			assertThat(renewing.redis.getExpire(this.b, TimeUnit.MILLISECONDS)).isPositive();
			held.release();
			assertThat(renewing.redis.hasKey(this.a) || renewing.redis.hasKey(this.b)).isFalse();
		}
	}

	@Test
	void leaseLostOnOneKeyIsReportedAndReleaseStillReleasesTheOthers() {
		try (LockFixture renewing = LockFixture.start(RedisTestServers.shared(), Duration.ofMillis(600))) {
			LockHandle held = renewing.client.lock(List.of(this.a, this.b), LockOptions.renewing(Duration.ZERO));
			renewing.redis.delete(this.b);
			await().atMost(Duration.ofSeconds(10)).until(held::isLeaseLost);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(held::release)
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(this.b));
			assertThat(renewing.redis.hasKey(this.a)).isFalse();
		}
	}

	@Test
	void keyOfAnotherTypeFailsClearlyBeforeAnythingIsWritten() {
		this.here.redis.opsForZSet().add(this.a, "r.0123", 1);
		try {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.here.client.tryLock(List.of(this.a, this.b), NO_WAIT));
			assertThat(this.here.redis.hasKey(this.b)).isFalse();
		}
		finally {
			this.here.redis.delete(this.a);
		}
	}

	@Test
	void keysTheThreadHoldsAreReentered() {
		try (LockHandle outer = this.here.client.lock(this.a, NO_WAIT);
				LockHandle both = this.here.client.lock(List.of(this.a, this.b), NO_WAIT)) {
			assertThat(both.fencingToken(this.a)).isEqualTo(outer.fencingToken());
			assertThat(this.there.client.tryLock(this.b, NO_WAIT)).isEmpty();
		}
		assertThat(this.here.redis.hasKey(this.a) || this.here.redis.hasKey(this.b)).isFalse();
	}

	@Test
	void sharedOptionsAreRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.here.client.lock(List.of(this.a, this.b), NO_WAIT.withMode(LockMode.WRITE)))
			.withMessageContaining("exclusive locks only");
	}

	@Test
	void aThreadOfTheSameClientWaitingForAKeyIsHandedItOnRelease() throws Exception {
		LockHandle both = this.here.client.lock(List.of(this.a, this.b), NO_WAIT);
		CountDownLatch waiting = new CountDownLatch(1);
		CompletableFuture<Long> other = CompletableFuture.supplyAsync(() -> {
			waiting.countDown();
			try (LockHandle a = this.here.client.lock(this.a, LockOptions.renewing(Duration.ofSeconds(30)))) {
				return a.fencingToken();
			}
		});
		waiting.await();
		await().until(() -> this.here.client.monitor().waiters().size() == 1);
		long tokenOfA = both.fencingToken(this.a);
		both.release();
		assertThat(other.get(10, TimeUnit.SECONDS)).isGreaterThan(tokenOfA);
	}

}
