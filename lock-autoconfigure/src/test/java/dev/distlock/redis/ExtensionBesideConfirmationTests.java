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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.ReleaseOutcome;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A holder's extension and the confirmation of its hand-over are sent from two threads,
 * the holder's and a sender thread of the renewer, and each reads its send time before it
 * writes its command: Redis may run them in the other order than their send times. Here
 * the holder's thread is held between reading its send time and writing an extension to 3
 * s (shorter than its 20 s lease) until the confirmation, sent later, has been answered;
 * Redis then runs the extension last and keeps the lock for its 3 s only. The holder must
 * count its validity from the extension, and know its lease lost once Redis let the lock
 * go. The build before the fix counted the confirmation's 20 s instead: another owner
 * took the lock while the holder still held it by its own count.
 */
class ExtensionBesideConfirmationTests {

	private static final Duration CLAIM = Duration.ofMillis(1500);

	/** Long enough to outlast the wait for the confirmation, shorter than the lease. */
	private static final Duration EXTENSION = Duration.ofSeconds(3);

	/** A fixed lease, so that no renewal round runs beside the confirmation. */
	private static final LockOptions FIXED = LockOptions.renewing(Duration.ofSeconds(10))
		.withLeaseTime(Duration.ofSeconds(20));

	private final AtomicInteger confirmations = new AtomicInteger();

	/** The thread that waits for, holds, extends and releases the client's lock. */
	private final ExecutorService holderThread = Executors.newSingleThreadExecutor();

	private LockFixture fixture;

	/** The client's template, which the test holds or fails on chosen threads. */
	private PausingTemplate clientRedis;

	private StringRedisTemplate redis;

	private RedisLockClient client;

	private RedisLockCommands otherOwner;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), (connectionFactory) -> {
			this.clientRedis = new PausingTemplate(connectionFactory);
			return this.clientRedis;
		}, (builder) -> builder.claimWindow(CLAIM).listener(new LockListener() {

			@Override
			public void renewed(int renewed, int roundTrips) {
				ExtensionBesideConfirmationTests.this.confirmations.addAndGet(roundTrips);
			}

		}));
		this.redis = this.fixture.redis;
		this.client = this.fixture.client;
		this.otherOwner = new RedisLockCommands(this.redis, LockFixture.KEYSPACE, new RedisReachability(),
				CLAIM.toMillis(), ReplicaAcknowledgement.NONE);
	}

	@AfterEach
	void stop() {
		this.clientRedis.resume();
		this.holderThread.shutdownNow();
		this.fixture.close();
	}

	@Test
	void shorterExtensionThatRedisRunsAfterALaterSentConfirmationBoundsTheHoldersValidity() throws Exception {
		for (int run = 1;; run++) {
			String key = TestRedis.uniqueKey("extension-beside-confirmation");
			LockHandle handle = handedOver(key);
			this.clientRedis.pauseNextCommandOf(threadOf(this.holderThread));
			Future<?> extension = this.holderThread.submit(() -> handle.extend(EXTENSION));
			this.clientRedis.awaitPaused();
			if (this.confirmations.get() > 0 && run < 5) {
				// Too slow: the confirmation went out before the extension's send time
				// was read. Tried again.
				this.clientRedis.resume();
				extension.get(10, TimeUnit.SECONDS);
				this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
				this.confirmations.set(0);
				continue;
			}
			assertThat(this.confirmations)
				.as("the extension's send time read before the confirmation is sent, in %d runs", run)
				.hasValue(0);
			// The confirmation, sent after the extension's send time, runs first: the
			// key's expiry goes up to the 20 s lease.
			await().atMost(CLAIM).pollInterval(Duration.ofMillis(10)).until(() -> this.confirmations.get() == 1);
			assertThat(this.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("raised to the lease")
				.isGreaterThan(EXTENSION.toMillis());
			// The extension runs last: Redis keeps the lock for its 3 s from now.
			this.clientRedis.resume();
			extension.get(10, TimeUnit.SECONDS);
			assertThat(this.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("the extension ran last")
				.isLessThanOrEqualTo(EXTENSION.toMillis());
			await().atMost(EXTENSION.plusSeconds(2))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> !this.redis.hasKey(key));
			assertThat(this.otherOwner.acquire(key, "other", 30_000, null, 0, 1, false).granted())
				.as("another owner takes the lock Redis let go")
				.isTrue();
			assertThat(handle.isLeaseLost()).as("the holder knows its lease ran out").isTrue();
			return;
		}
	}

	/**
	 * An extension that fails (here before it reaches Redis; a lost reply looks the same
	 * to the holder) leaves the hand-over on its claim, and its confirmation still due:
	 * the hold outlasts the claim window. Its deadline stays no later than the failed
	 * extension's, which Redis may still run.
	 */
	@Test
	void failedExtensionLeavesTheHandOversConfirmationDue() throws Exception {
		String key = TestRedis.uniqueKey("failed-extension");
		LockHandle handle = handedOver(key);
		this.clientRedis.failNextCommandOf(threadOf(this.holderThread));
		Future<?> extension = this.holderThread.submit(() -> handle.extend(Duration.ofSeconds(10)));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> extension.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockUnavailableException.class);
		await().atMost(CLAIM).pollInterval(Duration.ofMillis(10)).until(() -> this.confirmations.get() == 1);
		assertThat(this.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("confirmed to the lease")
			.isGreaterThan(CLAIM.toMillis());
		await().during(CLAIM).atMost(CLAIM.multipliedBy(2)).until(() -> !handle.isLeaseLost());
		this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
		assertThat(this.redis.hasKey(key)).isFalse();
	}

	/**
	 * A confirmation sent just before the holder's extension, and answered after it was
	 * sent, does not count (Redis may have run the extension after it); the extension
	 * then fails. The confirmation is sent again, counts, and the hold outlasts its claim
	 * window. The build before sent none: the hold was lost at the end of the window
	 * while Redis kept the lock for its lease.
	 */
	@Test
	void confirmationThatDidNotCountBesideAFailedExtensionIsSentAgain() throws Exception {
		String key = TestRedis.uniqueKey("confirmation-again");
		LockHandle handle = handedOver(key);
		this.clientRedis.pauseNextCommandOf((thread) -> thread.getName().startsWith("distlock-renewal-sender"));
		this.clientRedis.awaitPaused();
		this.clientRedis.failNextCommandOf(threadOf(this.holderThread));
		Future<?> extension = this.holderThread.submit(() -> handle.extend(Duration.ofSeconds(10)));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> extension.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockUnavailableException.class);
		this.clientRedis.resume();
		await().atMost(CLAIM).pollInterval(Duration.ofMillis(10)).until(() -> this.confirmations.get() >= 2);
		await().during(CLAIM).atMost(CLAIM.multipliedBy(2)).until(() -> !handle.isLeaseLost());
		assertThat(this.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("kept for the lease")
			.isGreaterThan(CLAIM.toMillis());
		this.holderThread.submit(handle::release).get(10, TimeUnit.SECONDS);
		assertThat(this.redis.hasKey(key)).isFalse();
	}

	/**
	 * A shorter extension counts from its send: while its answer is awaited, the hold is
	 * reported lost at the extension's deadline, not at the lease's (Redis may have run
	 * it, and let the key go).
	 */
	@Test
	void shorterExtensionAwaitingItsAnswerReportsTheLeaseLostAtItsOwnDeadline() throws Exception {
		String key = TestRedis.uniqueKey("extension-awaited");
		LockHandle handle = this.holderThread.submit(() -> this.client.lock(key, FIXED)).get(10, TimeUnit.SECONDS);
		CountDownLatch lost = new CountDownLatch(1);
		handle.whenLeaseLost(lost::countDown);
		this.clientRedis.pauseNextCommandOf(threadOf(this.holderThread));
		long sent = System.nanoTime();
		Future<?> extension = this.holderThread.submit(() -> handle.extend(Duration.ofSeconds(1)));
		this.clientRedis.awaitPaused();
		assertThat(lost.await(5, TimeUnit.SECONDS)).as("reported lost while the extension is awaited").isTrue();
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("at the extension's deadline, not the lease's")
			.isLessThan(Duration.ofMillis(2500));
		this.clientRedis.resume();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> extension.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockLeaseLostException.class);
	}

	/**
	 * Has the client wait for a lock that another owner holds, and that owner release it
	 * to the client through the queue: a hold on the claim window, whose confirmation is
	 * due a third of the way into it.
	 */
	private LockHandle handedOver(String key) throws Exception {
		assertThat(this.otherOwner.acquire(key, "holder", 30_000, null, 0, 1, false).granted()).isTrue();
		Future<LockHandle> waiting = this.holderThread.submit(() -> this.client.lock(key, FIXED));
		await().until(() -> this.redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key)) == 1);
		assertThat(this.otherOwner.release(key, "holder", 0)).as("handed to the client")
			.isEqualTo(ReleaseOutcome.HANDED_OVER);
		return waiting.get(10, TimeUnit.SECONDS);
	}

	private static Thread threadOf(ExecutorService executor) throws Exception {
		return executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
	}

	/**
	 * The client's template: holds a chosen thread before its next command, as a thread
	 * preempted between reading its send time and writing its command is held, or fails
	 * that command as a lost connection does.
	 */
	private static final class PausingTemplate extends StringRedisTemplate {

		private volatile @Nullable Predicate<Thread> pausing;

		private volatile @Nullable Predicate<Thread> failing;

		private volatile CountDownLatch paused = new CountDownLatch(1);

		private volatile CountDownLatch resumed = new CountDownLatch(1);

		PausingTemplate(LettuceConnectionFactory connectionFactory) {
			super(connectionFactory);
			afterPropertiesSet();
		}

		void pauseNextCommandOf(Thread thread) {
			pauseNextCommandOf((current) -> current == thread);
		}

		void pauseNextCommandOf(Predicate<Thread> threads) {
			this.paused = new CountDownLatch(1);
			this.resumed = new CountDownLatch(1);
			this.pausing = threads;
		}

		void failNextCommandOf(Thread thread) {
			this.failing = (current) -> current == thread;
		}

		void awaitPaused() throws InterruptedException {
			assertThat(this.paused.await(10, TimeUnit.SECONDS)).as("the holder's command held").isTrue();
		}

		void resume() {
			this.resumed.countDown();
		}

		@Override
		public <T> @Nullable T execute(RedisCallback<T> action, boolean exposeConnection) {
			Predicate<Thread> failing = this.failing;
			if (failing != null && failing.test(Thread.currentThread())) {
				this.failing = null;
				throw new RedisConnectionFailureException("Connection lost (test)");
			}
			Predicate<Thread> pausing = this.pausing;
			if (pausing != null && pausing.test(Thread.currentThread())) {
				this.pausing = null;
				this.paused.countDown();
				try {
					this.resumed.await(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return super.execute(action, exposeConnection);
		}

	}

}
