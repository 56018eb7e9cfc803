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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.redis.protocol.ReleaseOutcome;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.WaitTimings;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hand-over is accepted only while it can still be valid. A waiter paused while a
 * release handed it the lock, whose claim window ran out and whose lock someone else
 * took, must not return the lock to its caller when it continues; and a waiter that died
 * in the queue keeps the next waiter out only for the claim window, not for its lease.
 */
class HandOverValidityTests {

	private static final Duration CLAIM = Duration.ofMillis(300);

	private static final String NOBODY_LISTENS = "test:distlock:released:nobody";

	private LockFixture fixture;

	private RedisLockCommands commands;

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void handOverWhoseClaimWindowRanOutIsCheckedInRedisInstead() {
		String key = TestRedis.uniqueKey("late");
		Optional<LockHandle> handle = waitWith(key, () -> {
			long fence = handToTheWaiterAndLetAThiefTakeIt(key);
			return new HandOverMessage("waiter", fence, 1);
		});
		assertThat(handle).as("the thief holds the lock: the waiter must not").isEmpty();
		assertThat(this.fixture.redis.opsForValue().get(key))
			.as("the thief's token, marked: the waiter queued behind it")
			.isEqualTo("thief+queued");
	}

	@Test
	void handOverOlderThanAnAttemptThatFoundTheLockHeldIsVoid() {
		String key = TestRedis.uniqueKey("void");
		long[] fence = new long[1];
		Optional<LockHandle> handle = waitWith(key, () -> {
			fence[0] = handToTheWaiterAndLetAThiefTakeIt(key);
			return null;
		}, () -> new HandOverMessage("waiter", fence[0], 1));
		assertThat(handle).as("the message came after an attempt found the thief holding the lock").isEmpty();
		assertThat(this.fixture.redis.opsForValue().get(key))
			.as("the thief's token, marked: the waiter queued behind it")
			.isEqualTo("thief+queued");
	}

	@Test
	void waiterThatDiedInTheQueueKeepsTheNextOneOutOnlyForTheClaimWindow() throws Exception {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
		this.commands = new RedisLockCommands(this.fixture.redis, LockFixture.KEYSPACE, new RedisReachability(),
				WaitTimings.CLAIM_WINDOW.toMillis(), ReplicaAcknowledgement.NONE);
		String key = TestRedis.uniqueKey("crashed-waiter");
		assertThat(this.commands.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		this.commands.acquire(key, "dead", 30_000, NOBODY_LISTENS, 3_000, 1, true);
		CompletableFuture<Long> next = CompletableFuture.supplyAsync(() -> {
			try (LockHandle handle = this.fixture.client.lock(key, LockOptions.renewing(Duration.ofSeconds(20)))) {
				return System.nanoTime();
			}
		});
		await().until(() -> this.fixture.redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key)) == 2);
		long released = System.nanoTime();
		assertThat(this.commands.release(key, "holder", 0)).as("handed to the dead waiter")
			.isEqualTo(ReleaseOutcome.HANDED_OVER);
		long acquired = next.get(20, TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(acquired - released)).as("claim window + 1s, not the dead waiter's 30s lease")
			.isLessThanOrEqualTo(WaitTimings.CLAIM_WINDOW.plusMillis(1_200));
	}

	/**
	 * Releases the holder's lock to the waiter, lets the claim window run out and a thief
	 * take it.
	 */
	private long handToTheWaiterAndLetAThiefTakeIt(String key) {
		assertThat(this.commands.release(key, "holder", 0)).as("handed to the waiter")
			.isEqualTo(ReleaseOutcome.HANDED_OVER);
		long fence = Long.parseLong(this.fixture.redis.opsForValue().get(LockFixture.KEYSPACE.fenceKey(key)));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(this.commands.acquire(key, "thief", 30_000, null, 0, 1, false).granted()).isTrue();
		return fence;
	}

	@SafeVarargs
	private Optional<LockHandle> waitWith(String key, Supplier<@Nullable HandOverMessage>... steps) {
		this.fixture = LockFixture.start(RedisTestServers.shared(),
				(builder) -> builder.claimWindow(CLAIM).releaseMessages(false).waiter(new ScriptedWaiter(steps)));
		this.commands = new RedisLockCommands(this.fixture.redis, LockFixture.KEYSPACE, new RedisReachability(),
				CLAIM.toMillis(), ReplicaAcknowledgement.NONE);
		assertThat(this.commands.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		return this.fixture.client.tryLock(key, LockOptions.renewing(Duration.ofSeconds(20)));
	}

	/**
	 * Queues its acquirer, and runs one step per wait: the step stands for what happens
	 * while the acquirer is paused, and returns the hand-over message it then finds. When
	 * the steps run out the acquirer gives up.
	 */
	private static final class ScriptedWaiter implements LockWaiter {

		private final Deque<Supplier<@Nullable HandOverMessage>> steps;

		@SafeVarargs
		ScriptedWaiter(Supplier<@Nullable HandOverMessage>... steps) {
			this.steps = new ArrayDeque<>(java.util.List.of(steps));
		}

		@Override
		public Wait begin(String key, String token) {
			return new Wait() {

				private @Nullable HandOverMessage handOver;

				@Override
				public String handOverChannel() {
					return NOBODY_LISTENS;
				}

				@Override
				public boolean await(long holderLeaseMillis, long deadlineNanos) {
					Supplier<@Nullable HandOverMessage> step = ScriptedWaiter.this.steps.poll();
					if (step == null) {
						return false;
					}
					this.handOver = step.get();
					return true;
				}

				@Override
				public @Nullable HandOverMessage takeHandOver() {
					HandOverMessage taken = this.handOver;
					this.handOver = null;
					return taken;
				}

				@Override
				public void close(boolean acquired) {
				}

			};
		}

	}

}
