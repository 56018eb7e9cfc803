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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.ReleaseOutcome;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock handed over through the queue is kept by Redis for the claim window only. The
 * new holder extends it to its lease once it has held it for a third of the window: a
 * hold that lasts longer keeps its lock past the window, and one that ends sooner costs
 * no confirmation at all.
 */
class HandOverConfirmationTests {

	private static final Duration CLAIM = Duration.ofMillis(600);

	/** A fixed lease, so that no renewal round runs beside the confirmation. */
	private static final LockOptions FIXED = LockOptions.renewing(Duration.ofSeconds(10))
		.withLeaseTime(Duration.ofSeconds(20));

	private static final LockOptions RENEWING = LockOptions.renewing(Duration.ofSeconds(10));

	private final AtomicInteger confirmations = new AtomicInteger();

	/** The thread that waits for, holds and releases the client's locks. */
	private final ExecutorService holderThread = Executors.newSingleThreadExecutor();

	private LockFixture fixture;

	private RedisLockCommands holder;

	@BeforeEach
	void start() {
		LockListener countsRoundTrips = new LockListener() {

			@Override
			public void renewed(int renewed, int roundTrips) {
				HandOverConfirmationTests.this.confirmations.addAndGet(roundTrips);
			}

		};
		this.fixture = LockFixture.start(RedisTestServers.shared(),
				(builder) -> builder.claimWindow(CLAIM).listener(countsRoundTrips));
		this.holder = new RedisLockCommands(this.fixture.redis, LockFixture.KEYSPACE, new RedisReachability(),
				CLAIM.toMillis(), ReplicaAcknowledgement.NONE);
	}

	@AfterEach
	void stop() {
		this.holderThread.shutdownNow();
		this.fixture.close();
	}

	@Test
	void handOverHeldPastItsClaimWindowIsExtendedToItsLease() throws Exception {
		String key = TestRedis.uniqueKey("confirmed");
		LockHandle handle = handedOver(key);
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("kept for the claim window")
			.isLessThanOrEqualTo(CLAIM.toMillis());
		await().atMost(CLAIM).until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > CLAIM.toMillis());
		await().atMost(CLAIM).until(() -> this.confirmations.get() == 1);
		String token = this.fixture.redis.opsForValue().get(key);
		assertThat(token).as("the new holder's token").isNotNull().isNotEqualTo("holder");
		await().during(CLAIM.multipliedBy(2))
			.atMost(CLAIM.multipliedBy(3))
			.until(() -> !handle.isLeaseLost() && token.equals(this.fixture.redis.opsForValue().get(key)));
		this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	/**
	 * A read-write lock's hand-over is confirmed as an exclusive lock's is: its member's
	 * lease and the key's expiry are raised to the lease, and the hold lasts.
	 */
	@Test
	void sharedHandOverHeldPastItsClaimWindowIsExtendedToItsLease() throws Exception {
		String key = TestRedis.uniqueKey("shared-confirmed");
		LockOptions write = FIXED.withMode(LockMode.WRITE);
		try (LockFixture other = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30))) {
			LockHandle held = other.client.lock(key, write);
			Future<LockHandle> waiting = this.holderThread.submit(() -> this.fixture.client.lock(key, write));
			await().until(() -> this.fixture.redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key)) == 1);
			held.release();
			LockHandle handle = waiting.get(10, TimeUnit.SECONDS);
			assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("kept for the claim window")
				.isLessThanOrEqualTo(CLAIM.toMillis());
			await().atMost(CLAIM)
				.until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > CLAIM.toMillis());
			await().during(CLAIM.multipliedBy(2))
				.atMost(CLAIM.multipliedBy(3))
				.until(() -> !handle.isLeaseLost() && this.fixture.redis.hasKey(key));
			this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void handOverExtendedBeforeItsConfirmationPointKeepsTheExtension() throws Exception {
		String key = TestRedis.uniqueKey("extended");
		LockHandle handle = handedOver(key);
		// Before the confirmation point: the confirmation would set the key back to the
		// 20 s lease of the grant, while the holder counts 60 s.
		handle.extend(Duration.ofSeconds(60));
		await().during(CLAIM)
			.atMost(CLAIM.multipliedBy(2))
			.until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > 50_000);
		assertThat(this.confirmations).as("no confirmation after the extension").hasValue(0);
		assertThat(handle.isLeaseLost()).isFalse();
		this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
	}

	@Test
	void handOverReleasedEarlyIsNotConfirmed() throws Exception {
		for (int i = 0; i < 20; i++) {
			String key = TestRedis.uniqueKey("short");
			LockHandle handle = handedOver(key);
			this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
			assertThat(this.fixture.redis.hasKey(key)).isFalse();
			assertThat(handle.isLeaseLost()).isFalse();
		}
		await().during(CLAIM)
			.atMost(CLAIM.multipliedBy(2))
			.untilAsserted(() -> assertThat(this.confirmations)
				.as("confirmations sent for holds shorter than a third of the window")
				.hasValue(0));
	}

	/**
	 * A hand-over whose client queued lately, with another thread waiting to be passed
	 * it, is not confirmed beside the new holder's work: the lock passes on the claim,
	 * and the hold passed it, which lasts, confirms it at a third of what is left of the
	 * window. The queueing attempt must be recent (under half the confirmation window): a
	 * run where the test thread was too slow to release right after it is tried again.
	 */
	@Test
	void handOverQueuedLatelyThatAnotherThreadWaitsForIsPassedOnItsClaimWithoutAConfirmation() throws Exception {
		Duration claim = Duration.ofSeconds(3);
		useClaimWindow(claim);
		ExecutorService secondThread = Executors.newSingleThreadExecutor();
		try {
			for (int run = 1;; run++) {
				String key = TestRedis.uniqueKey("passed-on-claim");
				PassingSetUp setUp = queueTwoThreads(key, secondThread);
				long beforeAttempt = awaitBlockReserved(key);
				assertThat(this.holder.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
				LockHandle firstHandle = setUp.first().get(10, TimeUnit.SECONDS);
				long queuedAgoAtMost = System.nanoTime() - beforeAttempt;
				if (queuedAgoAtMost >= TimeUnit.MILLISECONDS.toNanos(25) && run < 5) {
					// Too slow to tell: the first pass may confirm it as any pass does.
					this.holderThread.submit(firstHandle::release).get(10, TimeUnit.SECONDS);
					LockHandle secondHandle = setUp.second().get(10, TimeUnit.SECONDS);
					secondThread.submit(secondHandle::release).get(10, TimeUnit.SECONDS);
					this.confirmations.set(0);
					continue;
				}
				assertThat(queuedAgoAtMost).as("queued lately, in %d runs", run)
					.isLessThan(TimeUnit.MILLISECONDS.toNanos(25));
				String token = this.fixture.redis.opsForValue().get(key);
				assertThat(this.confirmations).as("no confirmation beside the new holder's work").hasValue(0);
				this.holderThread.submit(firstHandle::release).get(10, TimeUnit.SECONDS);
				LockHandle secondHandle = setUp.second().get(10, TimeUnit.SECONDS);
				assertThat(this.fixture.redis.opsForValue().get(key)).as("passed without Redis: the same owner token")
					.isEqualTo(token);
				assertThat(this.confirmations).as("passed on the claim, unconfirmed").hasValue(0);
				assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("kept for the claim window")
					.isLessThanOrEqualTo(claim.toMillis());
				// The hold passed it lasts: confirmed a third of the way to the end of
				// the claim, and kept past it.
				await().atMost(claim)
					.until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > claim.toMillis());
				await().during(claim).atMost(claim.multipliedBy(2)).until(() -> !secondHandle.isLeaseLost());
				assertThat(this.fixture.redis.opsForValue().get(key)).isEqualTo(token);
				secondThread.submit(secondHandle::release).get(10, TimeUnit.SECONDS);
				assertThat(this.fixture.redis.hasKey(key)).isFalse();
				return;
			}
		}
		finally {
			secondThread.shutdownNow();
		}
	}

	/**
	 * A hand-over whose client queued longer ago than half the confirmation window, with
	 * another thread waiting to be passed it, is confirmed at once, so that its first
	 * pass does not wait for a confirmation.
	 */
	@Test
	void handOverQueuedLongAgoThatAnotherThreadWaitsForIsConfirmedAtOnceAndPassedLocally() throws Exception {
		Duration claim = Duration.ofSeconds(3);
		useClaimWindow(claim);
		ExecutorService secondThread = Executors.newSingleThreadExecutor();
		try {
			String key = TestRedis.uniqueKey("passed-on");
			PassingSetUp setUp = queueTwoThreads(key, secondThread);
			awaitBlockReserved(key);
			long attemptSeen = System.nanoTime();
			// Half the confirmation window after that attempt; the first thread attempts
			// again only after the one-second backstop.
			long halfWindow = LocalCohort.CONFIRMATION_WINDOW.dividedBy(2).toNanos();
			await().pollInterval(Duration.ofMillis(5)).until(() -> System.nanoTime() - attemptSeen > halfWindow);
			assertThat(this.holder.release(key, "holder", 0)).isEqualTo(ReleaseOutcome.HANDED_OVER);
			LockHandle firstHandle = setUp.first().get(10, TimeUnit.SECONDS);
			String token = this.fixture.redis.opsForValue().get(key);
			await().atMost(claim.dividedBy(3).minusMillis(100))
				.until(() -> this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS) > claim.toMillis());
			this.holderThread.submit(firstHandle::release).get(10, TimeUnit.SECONDS);
			LockHandle secondHandle = setUp.second().get(10, TimeUnit.SECONDS);
			assertThat(this.fixture.redis.opsForValue().get(key)).as("passed without Redis: the same owner token")
				.isEqualTo(token);
			secondThread.submit(secondHandle::release).get(10, TimeUnit.SECONDS);
			assertThat(this.fixture.redis.hasKey(key)).isFalse();
		}
		finally {
			secondThread.shutdownNow();
		}
	}

	private void useClaimWindow(Duration claim) {
		this.fixture.close();
		this.fixture = LockFixture.start(RedisTestServers.shared(),
				(builder) -> builder.claimWindow(claim).listener(new LockListener() {

					@Override
					public void renewed(int renewed, int roundTrips) {
						HandOverConfirmationTests.this.confirmations.addAndGet(roundTrips);
					}

				}));
		this.holder = new RedisLockCommands(this.fixture.redis, LockFixture.KEYSPACE, new RedisReachability(),
				claim.toMillis(), ReplicaAcknowledgement.NONE);
	}

	/**
	 * Has another owner hold the key, the first thread of the client queue for it in
	 * Redis, and a second thread wait behind it in the client.
	 */
	private PassingSetUp queueTwoThreads(String key, ExecutorService secondThread) {
		assertThat(this.holder.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		// Auto-renewing: only such holds pass between threads without Redis.
		Future<LockHandle> first = this.holderThread.submit(() -> this.fixture.client.lock(key, RENEWING));
		await().until(() -> String.valueOf(this.fixture.redis.opsForValue().get(key)).endsWith("+queued"));
		Future<LockHandle> second = secondThread.submit(() -> this.fixture.client.lock(key, RENEWING));
		await().until(() -> this.fixture.client.cohort().othersWaitFor(key));
		return new PassingSetUp(first, second);
	}

	/**
	 * Waits for the first thread's next attempt (within a second), which reserves fencing
	 * tokens for the thread waiting behind it, as a local pass needs.
	 * @return a time before that attempt was sent, by {@link System#nanoTime()}
	 */
	private long awaitBlockReserved(String key) {
		long[] beforeAttempt = { System.nanoTime() };
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> {
			long polled = System.nanoTime();
			if (reservedBlock(key) > 1) {
				return true;
			}
			beforeAttempt[0] = polled;
			return false;
		});
		return beforeAttempt[0];
	}

	private record PassingSetUp(Future<LockHandle> first, Future<LockHandle> second) {
	}

	/**
	 * Returns the block of fencing tokens the first waiter in the key's queue reserves.
	 */
	private long reservedBlock(String key) {
		String first = this.fixture.redis.opsForList().index(LockFixture.KEYSPACE.queueKey(key), 0);
		Object entry = (first != null)
				? this.fixture.redis.opsForHash().get(LockFixture.KEYSPACE.waitersKey(key), first) : null;
		// '<valid until> <claim window> <block> <publish> <channel>'
		return (entry != null) ? Long.parseLong(entry.toString().split(" ")[2]) : 0;
	}

	/**
	 * Has the client wait for a lock that another owner holds, and that owner release it
	 * to the client through the queue.
	 */
	private LockHandle handedOver(String key) throws Exception {
		assertThat(this.holder.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		Future<LockHandle> waiting = this.holderThread.submit(() -> this.fixture.client.lock(key, FIXED));
		await().until(() -> this.fixture.redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key)) == 1);
		assertThat(this.holder.release(key, "holder", 0)).as("handed to the client")
			.isEqualTo(ReleaseOutcome.HANDED_OVER);
		return waiting.get(10, TimeUnit.SECONDS);
	}

}
