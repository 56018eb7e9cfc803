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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 1: a hold whose lease ran out keeps nobody of its own process out. A
 * stuck job takes a lock with a fixed 50 ms lease and never releases it; after 100 ms the
 * key is gone from Redis. Another thread of the same client calling with zero wait (a
 * {@code @Scheduled} job with {@code waitTime = "0"}) must get the lock at its first
 * attempt, as a caller of another client does, for every kind of lock; a thread that
 * waits must get it when the holder's lease ends, not at a 1 s backstop. The controls
 * show that the same measurements catch a caller kept out: a hold whose lease has not run
 * out refuses the zero-wait callers of both clients, and keeps a waiter out for its whole
 * wait.
 */
class LapsedLocalHoldTests {

	private static final Duration LEASE = Duration.ofMillis(50);

	private static final int ATTEMPTS = 30;

	private static final long ATTEMPT_EVERY_MS = 50;

	private static RedisNode redis;

	private static LockApps apps;

	private static LockClient clientA;

	private static LockClient clientB;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		apps = new LockApps();
		clientA = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		clientB = apps.client(redis.port(), "spring.data.redis.timeout=2s");
	}

	@AfterAll
	static void stop() {
		apps.close();
		redis.close();
	}

	/**
	 * The lock kinds a stuck job may hold, each with the acquisition a zero-wait caller
	 * of the same client makes on the same key(s).
	 */
	enum Kind {

		EXCLUSIVE(new LockOptions(Duration.ZERO, LEASE), LockOptions.renewing(Duration.ZERO)),

		READ_THEN_WRITE(new LockOptions(Duration.ZERO, LEASE).withMode(LockMode.READ),
				LockOptions.renewing(Duration.ZERO).withMode(LockMode.WRITE)),

		WRITE_THEN_READ(new LockOptions(Duration.ZERO, LEASE).withMode(LockMode.WRITE),
				LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ)),

		/** Both permits of a semaphore of two, each taken by a stuck job. */
		PERMITS(new LockOptions(Duration.ZERO, LEASE).withPermits(2),
				LockOptions.renewing(Duration.ZERO).withPermits(2)) {
			@Override
			int stuckJobs() {
				return 2;
			}
		},

		SEVERAL_KEYS(new LockOptions(Duration.ZERO, LEASE), LockOptions.renewing(Duration.ZERO)) {
			@Override
			Optional<LockHandle> tryLock(LockClient client, String key, LockOptions options) {
				return client.tryLock(List.of(key + ":a", key + ":b"), options);
			}
		};

		final LockOptions stuck;

		final LockOptions zeroWait;

		Kind(LockOptions stuck, LockOptions zeroWait) {
			this.stuck = stuck;
			this.zeroWait = zeroWait;
		}

		Optional<LockHandle> tryLock(LockClient client, String key, LockOptions options) {
			return client.tryLock(key, options);
		}

		/** How many stuck jobs it takes to hold every place the key has. */
		int stuckJobs() {
			return 1;
		}

	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void zeroWaitCallerOfTheHoldersClientGetsTheLockOnceTheHoldLapsed(Kind kind) throws Exception {
		String key = "lock:lapsed:" + UUID.randomUUID();
		try (StuckJob stuck = StuckJob.take(clientA, (client) -> kind.tryLock(client, key, kind.stuck));
				StuckJob second = (kind.stuckJobs() > 1)
						? StuckJob.take(clientA, (client) -> kind.tryLock(client, key, kind.stuck)) : null) {
			Pause.until(((second != null) ? second : stuck).acquiredNanos + 2 * LEASE.toNanos());
			Attempts attempts = attempt(() -> kind.tryLock(clientA, key, kind.zeroWait));
			Figures.record("lapsed local hold, zero wait, " + kind,
					"fixed %d ms lease never released; another thread of the same client, zero wait, from %d ms "
							+ "after the grant: %s",
					LEASE.toMillis(), 2 * LEASE.toMillis(), attempts.describe());
			assertThat(attempts.acquiredAt).as("attempt that got the lock").isEqualTo(1);
		}
	}

	@Test
	void controlZeroWaitCallersOfBothClientsAreRefusedWhileTheHoldIsValid() throws Exception {
		String key = "lock:lapsed:" + UUID.randomUUID();
		LockOptions valid = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));
		try (StuckJob stuck = StuckJob.take(clientA, (client) -> client.tryLock(key, valid))) {
			Attempts sameClient = attempt(() -> clientA.tryLock(key, LockOptions.renewing(Duration.ZERO)));
			Optional<LockHandle> otherClient = clientB.tryLock(key, LockOptions.renewing(Duration.ZERO));
			Figures.record("lapsed local hold control",
					"fixed 10 s lease held: the same client's zero-wait caller %s; another client's: %s",
					sameClient.describe(), otherClient.isPresent() ? "acquired" : "refused");
			otherClient.ifPresent(LockHandle::release);
			assertThat(sameClient.acquiredAt).as("attempt that got the lock").isZero();
			assertThat(otherClient).isEmpty();
		}
	}

	@Test
	void waitingCallerOfTheHoldersClientGetsTheLockWhenTheHoldLapses() throws Exception {
		String key = "lock:lapsed:" + UUID.randomUUID();
		Duration lease = Duration.ofMillis(300);
		try (StuckJob stuck = StuckJob.take(clientA,
				(client) -> client.tryLock(key, new LockOptions(Duration.ZERO, lease)))) {
			long waitStart = System.nanoTime();
			Optional<LockHandle> waited = onOtherThread(
					() -> clientA.tryLock(key, LockOptions.renewing(Duration.ofSeconds(3))));
			long acquired = System.nanoTime();
			long afterGrant = TimeUnit.NANOSECONDS.toMillis(acquired - stuck.acquiredNanos);
			Figures.record("lapsed local hold, waiting caller",
					"fixed %d ms lease never released; another thread of the same client waiting from %d ms after "
							+ "the grant: %s %d ms after the grant (%d ms after the lease)",
					lease.toMillis(), TimeUnit.NANOSECONDS.toMillis(waitStart - stuck.acquiredNanos),
					waited.isPresent() ? "acquired" : "not acquired", afterGrant, afterGrant - lease.toMillis());
			waited.ifPresent(LockHandle::release);
			assertThat(waited).isPresent();
			assertThat(afterGrant).as("ms from the grant of the stuck hold").isLessThan(lease.toMillis() + 150);
		}
	}

	@Test
	void controlWaitingCallerIsKeptOutByAHoldThatIsRenewed() throws Exception {
		String key = "lock:lapsed:" + UUID.randomUUID();
		try (StuckJob stuck = StuckJob.take(clientA,
				(client) -> client.tryLock(key, LockOptions.renewing(Duration.ZERO)))) {
			long waitStart = System.nanoTime();
			Optional<LockHandle> waited = onOtherThread(
					() -> clientA.tryLock(key, LockOptions.renewing(Duration.ofMillis(700))));
			Figures.record("lapsed local hold, waiting caller control",
					"renewed hold never released; another thread of the same client waiting 700 ms: %s after %d ms",
					waited.isPresent() ? "acquired" : "not acquired",
					TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart));
			waited.ifPresent(LockHandle::release);
			assertThat(waited).isEmpty();
		}
	}

	private static Attempts attempt(Attempt attempt) throws Exception {
		long start = System.nanoTime();
		for (int i = 1; i <= ATTEMPTS; i++) {
			Optional<LockHandle> handle = onOtherThread(attempt::tryLock);
			if (handle.isPresent()) {
				long after = System.nanoTime() - start;
				handle.get().release();
				return new Attempts(i, TimeUnit.NANOSECONDS.toMillis(after));
			}
			Pause.millis(ATTEMPT_EVERY_MS);
		}
		return new Attempts(0, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
	}

	/** Runs an acquisition on a thread of its own, as a scheduler's pool would. */
	private static Optional<LockHandle> onOtherThread(Attempt attempt) throws Exception {
		CompletableFuture<Optional<LockHandle>> result = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				result.complete(attempt.tryLock());
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}, "lapsed-hold-caller");
		thread.start();
		return result.get(10, TimeUnit.SECONDS);
	}

	@FunctionalInterface
	interface Attempt {

		Optional<LockHandle> tryLock();

	}

	/**
	 * The attempt that got the lock.
	 *
	 * @param acquiredAt its number from 1, 0 if none did
	 * @param elapsedMs how long after the first attempt
	 */
	record Attempts(int acquiredAt, long elapsedMs) {

		String describe() {
			return (this.acquiredAt > 0)
					? "acquired at attempt " + this.acquiredAt + " of " + ATTEMPTS + ", " + this.elapsedMs
							+ " ms after the first"
					: "refused in all " + ATTEMPTS + " attempts over " + this.elapsedMs + " ms";
		}

	}

	/**
	 * A job that takes a lock on a thread that stays alive and never releases it until
	 * the test ends (a stuck job); its release then may find the lease lost.
	 */
	static final class StuckJob implements AutoCloseable {

		private final CountDownLatch done = new CountDownLatch(1);

		private final Thread thread;

		final long acquiredNanos;

		private StuckJob(Function<LockClient, Optional<LockHandle>> take, LockClient client) throws Exception {
			CompletableFuture<Long> acquired = new CompletableFuture<>();
			this.thread = new Thread(() -> {
				Optional<LockHandle> handle = take.apply(client);
				if (handle.isEmpty()) {
					acquired.completeExceptionally(new IllegalStateException("the stuck job did not get the lock"));
					return;
				}
				acquired.complete(System.nanoTime());
				try {
					this.done.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				try {
					handle.get().release();
				}
				catch (RuntimeException ex) {
					// Its lease ran out long ago: LockLeaseLostException.
				}
			}, "stuck-job");
			this.thread.start();
			this.acquiredNanos = acquired.get(10, TimeUnit.SECONDS);
		}

		static StuckJob take(LockClient client, Function<LockClient, Optional<LockHandle>> take) throws Exception {
			return new StuckJob(take, client);
		}

		@Override
		public void close() throws InterruptedException {
			this.done.countDown();
			this.thread.join(10_000);
		}

	}

}
