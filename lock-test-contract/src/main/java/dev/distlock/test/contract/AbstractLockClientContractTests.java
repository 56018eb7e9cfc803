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

package dev.distlock.test.contract;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract every {@link LockClient} must keep, whatever its lock mode: a held lock
 * excludes other threads until it is released or its lease expires, a stale holder cannot
 * release its successor's lock, waits give up at their wait time or on interrupt, release
 * is idempotent, the holding thread re-enters, every grant gets a greater fencing token,
 * and a fixed lease can be extended (or shortened) while it is held, but not once
 * released, lost or auto-renewing.
 * <p>
 * To run it against your own client, or a wrapper around one, subclass it and implement
 * {@link #client()}; the subclass starts the client before the tests and closes it after
 * them, for example:
 *
 * <pre>
 * &#64;TestInstance(TestInstance.Lifecycle.PER_CLASS)
 * class MyLockClientContractTests extends AbstractLockClientContractTests {
 *
 *     private MyLockClient client;
 *
 *     &#64;BeforeAll
 *     void start() {
 *         this.client = MyLockClient.start();
 *     }
 *
 *     &#64;AfterAll
 *     void stop() {
 *         this.client.close();
 *     }
 *
 *     &#64;Override
 *     protected LockClient client() {
 *         return this.client;
 *     }
 *
 * }
 * </pre>
 *
 * The tests may all use the same client, from many threads: each locks keys of its own
 * ({@code test:<what>:<random UUID>}), so they may share a Redis server with other tests.
 * Some leases are 200 milliseconds long and are expected to expire.
 */
public abstract class AbstractLockClientContractTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	private static final Duration SHORT_LEASE = Duration.ofMillis(200);

	/**
	 * How long the first holder of a fresh key with {@link #SHORT_LEASE} may wait: it
	 * takes the key at its first attempt, but on a loaded machine that attempt's reply
	 * may come after so short a lease ran out, and the client rightly does not trust it;
	 * the next attempt takes the key again.
	 */
	private static final Duration FRESH_KEY_WAIT = Duration.ofSeconds(5);

	/**
	 * Returns the client under test; every call may return the same client.
	 * @return the client
	 */
	protected abstract LockClient client();

	/**
	 * Returns the options every acquisition of the suite uses, derived from the ones the
	 * test gives: a subclass runs the whole contract for another kind of lock, such as
	 * the write side of a read-write lock ({@code options.withMode(LockMode.WRITE)}).
	 * @param options the options the test gives
	 * @return the options to acquire with; by default the given ones
	 */
	protected LockOptions options(LockOptions options) {
		return options;
	}

	@Test
	void heldLockExcludesOtherAcquirers() {
		String key = uniqueKey("exclusion");
		try (LockHandle held = lock(key, Duration.ZERO, LONG_LEASE)) {
			assertThat(tryLockInOtherThread(key, Duration.ZERO)).isEmpty();
			assertThat(tryLockInOtherThread(key, Duration.ofMillis(100))).isEmpty();
		}
		try (LockHandle next = lock(key, Duration.ZERO, LONG_LEASE)) {
			assertThat(next.key()).endsWith(key);
		}
	}

	@Test
	void releaseLetsTheNextAcquirerIn() {
		String key = uniqueKey("handover");
		LockHandle first = lock(key, Duration.ZERO, LONG_LEASE);
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(
				() -> client().tryLock(key, options(new LockOptions(Duration.ofSeconds(20), LONG_LEASE))),
				AbstractLockClientContractTests::newThread);
		first.release();
		Optional<LockHandle> second = waiter.join();
		assertThat(second).isPresent();
		second.get().release();
	}

	@Test
	void expiredLeaseFreesTheLock() {
		String key = uniqueKey("expiry");
		lock(key, FRESH_KEY_WAIT, SHORT_LEASE);
		Optional<LockHandle> next = client().tryLock(key, options(new LockOptions(Duration.ofSeconds(20), LONG_LEASE)));
		assertThat(next).as("acquired after the first lease expired").isPresent();
		next.get().release();
	}

	@Test
	void staleHolderCannotReleaseTheNewHoldersLock() {
		String key = uniqueKey("stale");
		LockHandle stale = lock(key, FRESH_KEY_WAIT, SHORT_LEASE);
		LockHandle current = inOtherThread(
				() -> client().lock(key, options(new LockOptions(Duration.ofSeconds(20), LONG_LEASE))));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(stale::release).withMessageContaining(key);
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).as("new holder still holds the lock").isEmpty();
		current.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void waitTimeIsHonoured() {
		String key = uniqueKey("deadline");
		Duration waitTime = Duration.ofMillis(300);
		try (LockHandle held = lock(key, Duration.ZERO, LONG_LEASE)) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(
						() -> inOtherThread(() -> client().lock(key, options(new LockOptions(waitTime, LONG_LEASE)))))
				.satisfies((ex) -> assertThat(ex.getKey()).endsWith(key))
				.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(waitTime));
			long elapsed = System.nanoTime() - start;
			assertThat(elapsed).as("gave up no earlier than the wait time").isGreaterThanOrEqualTo(waitTime.toNanos());
			// The waiter never sleeps past the deadline; the generous bound only catches
			// a wait that
			// ignores it, not a slow machine.
			assertThat(elapsed).as("gave up soon after the wait time").isLessThan(TimeUnit.SECONDS.toNanos(10));
		}
	}

	@Test
	void releaseIsIdempotent() {
		String key = uniqueKey("idempotent");
		LockHandle handle = lock(key, Duration.ZERO, LONG_LEASE);
		handle.release();
		assertThat(handle.isReleased()).isTrue();
		LockHandle next = lock(key, Duration.ZERO, LONG_LEASE);
		handle.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).as("second release changed nothing").isEmpty();
		next.release();
	}

	@Test
	void actionThatThrowsStillReleasesAndItsExceptionPropagatesUnchanged() {
		String key = uniqueKey("throws");
		IllegalStateException failure = new IllegalStateException("boom");
		assertThatThrownBy(() -> client().execute(key, options(new LockOptions(Duration.ZERO, LONG_LEASE)), () -> {
			throw failure;
		})).isSameAs(failure);
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void executeReturnsTheActionsResultWhileHoldingTheLock() {
		String key = uniqueKey("execute");
		String result = client().execute(key, options(new LockOptions(Duration.ZERO, LONG_LEASE)),
				() -> tryLockInOtherThread(key, Duration.ZERO).isPresent() ? "not exclusive" : "exclusive");
		assertThat(result).isEqualTo("exclusive");
	}

	@Test
	void sameThreadReentersAndTheLockStaysUntilTheOutermostRelease() {
		String key = uniqueKey("reentrant");
		LockHandle outer = lock(key, Duration.ZERO, LONG_LEASE);
		LockHandle inner = lock(key, Duration.ZERO, LONG_LEASE);
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).as("still held after the inner release").isEmpty();
		outer.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void reentryAfterTheLeaseRanOutFailsClosed() {
		String key = uniqueKey("reentry-expired");
		LockHandle outer = lock(key, FRESH_KEY_WAIT, SHORT_LEASE);
		LockHandle other = inOtherThread(
				() -> client().lock(key, options(new LockOptions(Duration.ofSeconds(20), LONG_LEASE))));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> lock(key, Duration.ZERO, LONG_LEASE));
		assertThat(outer.isLeaseLost()).isTrue();
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(outer::release);
		other.release();
	}

	@Test
	void extensionKeepsAFixedLeasePastItsFirstEnd() {
		String key = uniqueKey("extend");
		LockHandle handle = lock(key, FRESH_KEY_WAIT, SHORT_LEASE);
		handle.extend(LONG_LEASE);
		assertThat(tryLockInOtherThread(key, SHORT_LEASE.multipliedBy(3))).as("held past the first lease").isEmpty();
		assertThat(handle.isLeaseLost()).isFalse();
		LockHandle inner = lock(key, Duration.ZERO, LONG_LEASE);
		inner.extend(LONG_LEASE);
		inner.release();
		handle.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void shorterExtensionEndsTheLeaseSooner() {
		String key = uniqueKey("extend-shorter");
		LockHandle handle = lock(key, Duration.ZERO, LONG_LEASE);
		handle.extend(SHORT_LEASE);
		long start = System.nanoTime();
		Optional<LockHandle> next = tryLockInOtherThread(key, Duration.ofSeconds(20));
		assertThat(next).as("acquired once the shortened lease ended").isPresent();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		assertThat(handle.isLeaseLost()).isTrue();
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		next.get().release();
	}

	@Test
	void extensionOfAReleasedHandleIsRefused() {
		String key = uniqueKey("extend-released");
		LockHandle handle = lock(key, Duration.ZERO, LONG_LEASE);
		handle.release();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> handle.extend(LONG_LEASE))
			.withMessageContaining("already released");
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void extensionOfALostLeaseIsRefusedAndLeavesTheNewHolder() {
		String key = uniqueKey("extend-lost");
		LockHandle stale = lock(key, FRESH_KEY_WAIT, SHORT_LEASE);
		LockHandle current = inOtherThread(
				() -> client().lock(key, options(new LockOptions(Duration.ofSeconds(20), LONG_LEASE))));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> stale.extend(LONG_LEASE))
			.withMessageContaining(key);
		assertThat(stale.isLeaseLost()).isTrue();
		current.release();
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).as("the stale extension kept nothing")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(stale::release);
	}

	@Test
	void extensionOfAnAutoRenewingLeaseIsRefused() {
		String key = uniqueKey("extend-renewing");
		try (LockHandle handle = client().lock(key, options(LockOptions.renewing(Duration.ZERO)))) {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> handle.extend(LONG_LEASE))
				.withMessageContaining("auto-renewing");
		}
	}

	@Test
	void everyGrantGetsAGreaterFencingToken() {
		String key = uniqueKey("fence");
		long previous = 0;
		for (int i = 0; i < 5; i++) {
			LockHandle handle = (i % 2 == 0) ? lock(key, Duration.ZERO, LONG_LEASE)
					: inOtherThread(() -> client().lock(key, options(new LockOptions(Duration.ZERO, LONG_LEASE))));
			assertThat(handle.fencingToken()).isGreaterThan(previous);
			previous = handle.fencingToken();
			handle.release();
		}
	}

	@Test
	void threadsTakeTurnsOnARenewedLeaseWithIncreasingFencingTokensAndNoOverlap() throws Exception {
		String key = uniqueKey("turns");
		LockOptions renewing = options(LockOptions.renewing(Duration.ofSeconds(20)));
		int threads = 4;
		int rounds = 25;
		java.util.List<long[]> holds = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
		java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
		try {
			java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(pool.submit(() -> {
					for (int i = 0; i < rounds; i++) {
						try (LockHandle handle = client().lock(key, renewing)) {
							long start = System.nanoTime();
							Thread.yield();
							holds.add(new long[] { start, System.nanoTime(), handle.fencingToken() });
						}
					}
				}));
			}
			for (java.util.concurrent.Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		java.util.List<long[]> byStart = new java.util.ArrayList<>(holds);
		byStart.sort(java.util.Comparator.comparingLong((long[] hold) -> hold[0]));
		assertThat(byStart).hasSize(threads * rounds);
		for (int i = 1; i < byStart.size(); i++) {
			assertThat(byStart.get(i)[0]).as("hold %d starts after the previous one ended", i)
				.isGreaterThan(byStart.get(i - 1)[1]);
			assertThat(byStart.get(i)[2]).as("hold %d has a greater fencing token", i)
				.isGreaterThan(byStart.get(i - 1)[2]);
		}
		assertThat(tryLockInOtherThread(key, Duration.ZERO)).as("released in the end")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	@Test
	void interruptedWaiterGivesUpAndKeepsItsInterruptFlag() throws Exception {
		String key = uniqueKey("interrupt");
		try (LockHandle held = lock(key, Duration.ZERO, LONG_LEASE)) {
			CompletableFuture<Boolean> result = new CompletableFuture<>();
			Thread waiter = new Thread(() -> {
				try {
					Optional<LockHandle> handle = client().tryLock(key,
							options(new LockOptions(Duration.ofSeconds(30), LONG_LEASE)));
					result.complete(handle.isEmpty() && Thread.currentThread().isInterrupted());
				}
				catch (Throwable ex) {
					result.completeExceptionally(ex);
				}
			});
			waiter.start();
			waiter.interrupt();
			assertThat(result.get(20, TimeUnit.SECONDS)).as("empty result and interrupt flag set").isTrue();
		}
	}

	/**
	 * Returns a key no other test uses, so tests can share a server.
	 */
	private static String uniqueKey(String name) {
		return "test:" + name + ":" + UUID.randomUUID();
	}

	private LockHandle lock(String key, Duration waitTime, Duration leaseTime) {
		return client().lock(key, options(new LockOptions(waitTime, leaseTime)));
	}

	private Optional<LockHandle> tryLockInOtherThread(String key, Duration waitTime) {
		return inOtherThread(() -> client().tryLock(key, options(new LockOptions(waitTime, LONG_LEASE))));
	}

	/**
	 * Runs an acquisition on another thread: the client is re-entrant for the thread
	 * holding a lock, so exclusion is only visible from other threads.
	 */
	private static <T> T inOtherThread(java.util.function.Supplier<T> action) {
		try {
			return CompletableFuture.supplyAsync(action, AbstractLockClientContractTests::newThread).join();
		}
		catch (java.util.concurrent.CompletionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
		}
	}

	/**
	 * Runs a task on a thread of its own: a pooled thread may still hold a lock from an
	 * earlier task, and would re-enter it instead of being excluded.
	 */
	private static void newThread(Runnable task) {
		new Thread(task, "contract-other-thread").start();
	}

}
