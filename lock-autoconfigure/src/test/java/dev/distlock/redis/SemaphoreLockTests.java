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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Semaphores ({@link LockOptions#permits()} above one) on real Redis, between two
 * clients: never more holders than permits, a crashed holder's permit returns after its
 * own lease, waiters are served in arrival order with fresh fencing tokens, renewal keeps
 * a permit, and every use of a key must give the same number of permits.
 */
class SemaphoreLockTests {

	private static final int PERMITS = 3;

	private static final LockOptions PERMIT = LockOptions.renewing(Duration.ofSeconds(10)).withPermits(PERMITS);

	@RegisterExtension
	final TwoLockClients clients = new TwoLockClients();

	@Test
	void neverMoreHoldersThanPermitsUnderLoad() throws Exception {
		String key = TestRedis.uniqueKey("sem-load");
		LockFixture[] clients = { this.clients.first(), this.clients.second() };
		AtomicInteger holdersNow = new AtomicInteger();
		AtomicInteger mostHolders = new AtomicInteger();
		AtomicInteger holds = new AtomicInteger();
		ConcurrentRunner.run(8, 10, (thread) -> {
			try (LockHandle handle = clients[thread % 2].client.lock(key, PERMIT)) {
				mostHolders.accumulateAndGet(holdersNow.incrementAndGet(), Math::max);
				// Work while holding: long enough for the other permits to be taken.
				long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
				while (System.nanoTime() - until < 0) {
					Thread.onSpinWait();
				}
				holdersNow.decrementAndGet();
				holds.incrementAndGet();
			}
		});
		assertThat(holds).hasValue(80);
		assertThat(mostHolders).as("most holders at once").hasValue(PERMITS);
		assertThat(this.clients.first().redis.hasKey(key)).isFalse();
	}

	@Test
	void crashedHoldersPermitReturnsAfterItsLease() {
		String key = TestRedis.uniqueKey("sem-crash");
		LockFixture crashing = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1));
		List<LockHandle> crashed = new ArrayList<>();
		for (int i = 0; i < PERMITS; i++) {
			crashed.add(CompletableFuture.supplyAsync(() -> crashing.client.lock(key, PERMIT)).join());
		}
		assertThat(this.clients.second().client.tryLock(key, PERMIT.withWaitTime(Duration.ZERO)))
			.as("all permits taken")
			.isEmpty();
		crashing.close();
		try (LockHandle handle = this.clients.second().client.lock(key, PERMIT.withWaitTime(Duration.ofSeconds(5)))) {
			assertThat(handle.fencingToken()).isGreaterThan(crashed.get(PERMITS - 1).fencingToken());
		}
	}

	@Test
	void waitersAreServedInArrivalOrderWithNewFencingTokens() throws Exception {
		String key = TestRedis.uniqueKey("sem-fifo");
		List<LockHandle> holders = new ArrayList<>();
		for (int i = 0; i < PERMITS; i++) {
			holders.add(CompletableFuture.supplyAsync(() -> this.clients.first().client.lock(key, PERMIT)).join());
		}
		long highest = holders.get(PERMITS - 1).fencingToken();
		List<Integer> order = new CopyOnWriteArrayList<>();
		long[] tokens = new long[4];
		List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			int waiter = i;
			LockFixture client = (i % 2 == 0) ? this.clients.second() : this.clients.first();
			waiters.add(CompletableFuture.supplyAsync(() -> {
				LockHandle handle = client.client.lock(key, PERMIT);
				order.add(waiter);
				tokens[waiter] = handle.fencingToken();
				return handle;
			}));
			await().atMost(Duration.ofSeconds(5)).until(() -> queueLength(key) == waiter + 1);
		}
		// One permit frees: the first waiter gets it; then two more, handed over in
		// queue order (their fencing tokens say in which order Redis granted them).
		holders.get(0).release();
		await().atMost(Duration.ofSeconds(5)).until(() -> order.size() == 1);
		assertThat(order).containsExactly(0);
		holders.get(1).release();
		holders.get(2).release();
		await().atMost(Duration.ofSeconds(5)).until(() -> order.size() == 3);
		assertThat(order).containsExactlyInAnyOrder(0, 1, 2);
		waiters.get(0).get(5, TimeUnit.SECONDS).release();
		await().atMost(Duration.ofSeconds(5)).until(() -> order.size() == 4);
		assertThat(order.get(3)).isEqualTo(3);
		assertThat(tokens[0]).isGreaterThan(highest);
		assertThat(tokens[0]).isLessThan(tokens[1]);
		assertThat(tokens[1]).isLessThan(tokens[2]);
		assertThat(tokens[2]).isLessThan(tokens[3]);
		for (int i = 1; i < 4; i++) {
			waiters.get(i).get(5, TimeUnit.SECONDS).release();
		}
		assertThat(this.clients.first().redis.hasKey(key)).isFalse();
	}

	@Test
	void renewalKeepsAPermitBeyondItsLease() {
		try (LockFixture renewing = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1))) {
			String key = TestRedis.uniqueKey("sem-renew");
			LockHandle handle = renewing.client.lock(key, PERMIT);
			String token = ((RedisLockHandle) handle).token();
			double granted = renewing.redis.opsForZSet().score(key, token);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> renewing.redis.opsForZSet().score(key, token) > granted + 1500);
			assertThat(handle.isLeaseLost()).isFalse();
			assertThat(renewing.redis.getExpire(key, TimeUnit.MILLISECONDS)).isPositive();
			handle.release();
			assertThat(renewing.redis.hasKey(key)).isFalse();
		}
	}

	@Test
	void aKeyGivenAnotherNumberOfPermitsFailsNamingBoth() {
		String key = TestRedis.uniqueKey("sem-mismatch");
		try (LockHandle handle = this.clients.first().client.lock(key, PERMIT)) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.second().client.tryLock(key, PERMIT.withPermits(5)))
				.withMessageContaining(key)
				.withMessageContaining("a semaphore of 3 permits")
				.withMessageContaining("a semaphore of 5 permits");
			assertThat(this.clients.first().redis.opsForZSet().zCard(key)).isEqualTo(1);
			assertThat(this.clients.first().redis.hasKey(LockFixture.KEYSPACE.queueKey(key))).isFalse();
		}
	}

	@Test
	void aPermitInsideTheSameSemaphoresPermitReentersIt() {
		String key = TestRedis.uniqueKey("sem-reenter");
		try (LockHandle outer = this.clients.first().client.lock(key, PERMIT)) {
			try (LockHandle inner = this.clients.first().client.lock(key, PERMIT)) {
				assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
				assertThat(this.clients.first().redis.opsForZSet().zCard(key)).as("permits taken").isEqualTo(1);
			}
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.clients.first().client.lock(key, PERMIT.withPermits(4)))
				.withMessageContaining("a semaphore of 3 permits")
				.withMessageContaining("a semaphore of 4 permits");
		}
	}

	private long queueLength(String key) {
		Long length = this.clients.first().redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key));
		return (length != null) ? length : 0;
	}

}
