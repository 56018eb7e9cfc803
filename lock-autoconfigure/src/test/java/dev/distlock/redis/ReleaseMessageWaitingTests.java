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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.RedisCommandCounts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters queue in Redis and a release hands the lock to the first of them, telling only
 * that waiter's client; they are served in arrival order across clients; a release with
 * nobody waiting publishes nothing; a waiter that gives up leaves the queue; a lock that
 * expires still goes to a waiter; without a subscription waiters back off.
 */
class ReleaseMessageWaitingTests {

	private static final LockOptions WAIT_LONG = new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30));

	private LockFixture holderSide;

	private LockFixture waiterSide;

	@BeforeEach
	void start() {
		// Threads of one client never pass the lock among themselves here: every
		// hand-over
		// goes
		// through the queue in Redis (LocalPassTests covers the passes).
		this.holderSide = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), 0);
		this.waiterSide = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), 0);
	}

	@AfterEach
	void stop() {
		this.holderSide.close();
		this.waiterSide.close();
	}

	@Test
	void releaseHandsTheLockToTheWaiterOfAnotherClient() {
		String key = TestRedis.uniqueKey("hand-over");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		long heldFence = held.fencingToken();
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
			.supplyAsync(() -> this.waiterSide.client.tryLock(key, WAIT_LONG));
		await().until(() -> this.waiterSide.waiter.waiting() == 1);
		long handOvers = this.waiterSide.waiter.handOvers();
		held.release();
		LockHandle acquired = waiting.join().orElseThrow();
		assertThat(this.waiterSide.waiter.handOvers() - handOvers).as("told by the release").isEqualTo(1);
		assertThat(acquired.fencingToken()).isGreaterThan(heldFence);
		acquired.release();
		assertThat(this.holderSide.redis.hasKey(key)).as("released").isFalse();
	}

	@Test
	void waitersOfAllClientsAreHandedTheLockInArrivalOrder() {
		String key = TestRedis.uniqueKey("fifo");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		List<String> order = new CopyOnWriteArrayList<>();
		List<LockFixture> sides = List.of(this.waiterSide, this.holderSide, this.waiterSide, this.holderSide);
		List<CompletableFuture<Void>> waiters = new java.util.ArrayList<>();
		for (int i = 0; i < sides.size(); i++) {
			String name = "waiter-" + i;
			LockFixture side = sides.get(i);
			int waitingBefore = side.waiter.waiting();
			waiters.add(CompletableFuture.runAsync(() -> {
				try (LockHandle handle = side.client.lock(key, WAIT_LONG)) {
					order.add(name);
				}
			}, (task) -> new Thread(task, name).start()));
			await().until(() -> side.waiter.waiting() == waitingBefore + 1);
		}
		held.release();
		waiters.forEach(CompletableFuture::join);
		assertThat(order).containsExactly("waiter-0", "waiter-1", "waiter-2", "waiter-3");
		assertNoQueueLeft(key);
	}

	@Test
	void releaseWithNobodyWaitingPublishesNothing() {
		String key = TestRedis.uniqueKey("quiet");
		long published = publishCalls();
		for (int i = 0; i < 10; i++) {
			this.holderSide.client.lock(key, WAIT_LONG).release();
		}
		assertThat(publishCalls()).isEqualTo(published);
	}

	@Test
	void waiterThatGivesUpLeavesTheQueue() {
		String key = TestRedis.uniqueKey("gave-up");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		LockOptions shortWait = new LockOptions(Duration.ofMillis(200), Duration.ofSeconds(30));
		assertThat(CompletableFuture.supplyAsync(() -> this.waiterSide.client.tryLock(key, shortWait)).join())
			.isEmpty();
		// It leaves in the background, so that giving up never waits on Redis once more.
		await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertNoQueueLeft(key));
		long published = publishCalls();
		held.release();
		assertThat(this.holderSide.redis.hasKey(key)).as("deleted, not handed to the waiter that left").isFalse();
		assertThat(publishCalls()).isEqualTo(published);
	}

	@Test
	void lockThatExpiresWithoutAReleaseStillGoesToAWaiter() {
		String key = TestRedis.uniqueKey("expired");
		this.holderSide.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(300)));
		long handOvers = this.waiterSide.waiter.handOvers();
		Optional<LockHandle> acquired = this.waiterSide.client.tryLock(key, WAIT_LONG);
		assertThat(acquired).as("acquired once the holder's lease ran out").isPresent();
		assertThat(this.waiterSide.waiter.handOvers()).as("no hand-over message").isEqualTo(handOvers);
		acquired.get().release();
		assertNoQueueLeft(key);
	}

	@Test
	void withoutASubscriptionWaitersFallBackToBackoff() {
		AtomicInteger fallbackWaits = new AtomicInteger();
		ReleaseMessageWaiter unsubscribed = new ReleaseMessageWaiter((key, token) -> {
			fallbackWaits.incrementAndGet();
			return JitteredBackoffWaiter.standard().begin(key, token);
		});
		RedisLockClient client = RedisLockClient.builder(this.waiterSide.redis).waiter(unsubscribed).build();
		String key = TestRedis.uniqueKey("fallback");
		LockHandle held = this.holderSide.client.lock(key, WAIT_LONG);
		assertThat(client.tryLock(key, new LockOptions(Duration.ofMillis(200), Duration.ofSeconds(1)))).isEmpty();
		assertThat(fallbackWaits).hasValue(1);
		assertThat(unsubscribed.isSubscribed()).isFalse();
		assertNoQueueLeft(key);
		held.release();
		client.close();
	}

	private void assertNoQueueLeft(String key) {
		assertThat(this.holderSide.redis.hasKey(LockFixture.KEYSPACE.queueKey(key))).as("queue").isFalse();
		assertThat(this.holderSide.redis.hasKey(LockFixture.KEYSPACE.waitersKey(key))).as("waiter entries").isFalse();
	}

	private long publishCalls() {
		return RedisCommandCounts.calls(this.holderSide.redis, "publish");
	}

}
