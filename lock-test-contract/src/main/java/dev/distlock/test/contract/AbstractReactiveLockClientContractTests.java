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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.reactive.ReactiveLockHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every {@link ReactiveLockClient} must keep, the reactive counterpart of
 * {@link AbstractLockClientContractTests}: a held lock excludes every other acquisition
 * until it is released or its lease expires, a stale holder cannot release its
 * successor's lock, waits give up at their wait time, release is idempotent, work that
 * fails or is cancelled releases, a chain re-enters the locks in its Reactor context, and
 * every grant gets a greater fencing token, and a fixed lease can be extended while it is
 * held but not once released or lost. Reactive work adds its own: a cancelled wait leaves
 * no place in the lock's queue, a lease lost while the work runs ends the work with a
 * {@link LockLeaseLostException}, and a {@code Flux} holds the lock until it completes.
 * <p>
 * To run it, subclass it, start the client before the tests and close it after them, as
 * for {@link AbstractLockClientContractTests}, and implement {@link #client()},
 * {@link #queueLength(String)} and {@link #waitingAcquirers(String)}. It needs
 * {@code io.projectreactor:reactor-test} on the test classpath.
 * <p>
 * Each test locks keys of its own ({@code test:<what>:<random UUID>}); exclusion is
 * checked from other chains (other subscriptions), which do not share the Reactor context
 * of a holder. Some leases are 200 milliseconds long and are expected to expire. Blocking
 * calls are made only on the test's own thread, never inside a chain, so the suite may
 * run under BlockHound.
 */
public abstract class AbstractReactiveLockClientContractTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	private static final Duration SHORT_LEASE = Duration.ofMillis(200);

	/**
	 * A fixed lease of {@link #SHORT_LEASE} on a fresh key, with a wait: the first
	 * attempt takes the key, but on a loaded machine its reply may come after so short a
	 * lease ran out, and the client rightly does not trust it; the next attempt takes the
	 * key again.
	 */
	private static final LockOptions SHORT_LEASE_ON_A_FRESH_KEY = new LockOptions(Duration.ofSeconds(5), SHORT_LEASE);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, LONG_LEASE);

	private static final LockOptions LONG_WAIT = new LockOptions(Duration.ofSeconds(20), LONG_LEASE);

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Returns the client under test; every call may return the same client.
	 * @return the client
	 */
	protected abstract ReactiveLockClient client();

	/**
	 * Returns how many waiters the store lists in the lock's queue, the places that a
	 * release hands the lock to.
	 * @param lockKey the key of the lock as its handles report it
	 * ({@link ReactiveLockHandle#key()})
	 * @return the number of queued waiters; 0 for a client whose waiters never queue
	 */
	protected abstract Mono<Long> queueLength(String lockKey);

	/**
	 * Returns how many acquisitions of the client are waiting for the lock: those that
	 * found it held and have not given up, acquired it or been cancelled since.
	 * @param lockKey the key of the lock as its handles report it
	 * ({@link ReactiveLockHandle#key()})
	 * @return the number of waiting acquisitions
	 */
	protected abstract Mono<Long> waitingAcquirers(String lockKey);

	@Test
	void heldLockExcludesOtherAcquirers() {
		String key = uniqueKey("exclusion");
		ReactiveLockHandle held = lock(key, NO_WAIT);
		StepVerifier.create(client().tryLock(key, NO_WAIT)).verifyComplete();
		StepVerifier.create(client().tryLock(key, new LockOptions(Duration.ofMillis(100), LONG_LEASE)))
			.verifyComplete();
		StepVerifier.create(held.release()).verifyComplete();
		ReactiveLockHandle next = lock(key, NO_WAIT);
		assertThat(next.key()).endsWith(key);
		StepVerifier.create(next.release()).verifyComplete();
	}

	@Test
	void releaseLetsTheNextAcquirerIn() {
		String key = uniqueKey("handover");
		ReactiveLockHandle first = lock(key, NO_WAIT);
		Mono<Long> waiter = client().withLock(key, LONG_WAIT, ReactiveLockContext.fencingToken()).cache();
		Disposable subscribed = waiter.subscribe();
		try {
			awaitTrue("the second acquisition waits", () -> waitingAcquirers(first.key()).map((n) -> n == 1));
			StepVerifier.create(first.release()).verifyComplete();
			assertThat(waiter.block(TIMEOUT)).as("fencing token of the next holder")
				.isGreaterThan(first.fencingToken());
		}
		finally {
			subscribed.dispose();
		}
	}

	@Test
	void expiredLeaseFreesTheLock() {
		String key = uniqueKey("expiry");
		lock(key, SHORT_LEASE_ON_A_FRESH_KEY);
		ReactiveLockHandle next = lock(key, LONG_WAIT);
		StepVerifier.create(next.release()).verifyComplete();
	}

	@Test
	void staleHolderCannotReleaseTheNewHoldersLock() {
		String key = uniqueKey("stale");
		ReactiveLockHandle stale = lock(key, SHORT_LEASE_ON_A_FRESH_KEY);
		ReactiveLockHandle current = lock(key, LONG_WAIT);
		StepVerifier.create(stale.release())
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOfSatisfying(LockLeaseLostException.class,
					(lost) -> assertThat(lost.getKey()).endsWith(key)))
			.verify(TIMEOUT);
		assertThat(acquiredElsewhere(key)).as("new holder still holds the lock").isFalse();
		StepVerifier.create(current.release()).verifyComplete();
		assertThat(acquiredElsewhere(key)).isTrue();
	}

	@Test
	void extensionKeepsAFixedLeasePastItsFirstEnd() {
		String key = uniqueKey("extend");
		ReactiveLockHandle handle = lock(key, SHORT_LEASE_ON_A_FRESH_KEY);
		StepVerifier.create(handle.extend(LONG_LEASE)).expectComplete().verify(TIMEOUT);
		StepVerifier.create(client().tryLock(key, new LockOptions(SHORT_LEASE.multipliedBy(3), LONG_LEASE)))
			.as("held past the first lease")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(handle.isLeaseLost()).isFalse();
		StepVerifier.create(handle.release()).verifyComplete();
		StepVerifier.create(handle.extend(LONG_LEASE))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("already released"))
			.verify(TIMEOUT);
		assertThat(acquiredElsewhere(key)).isTrue();
	}

	@Test
	void extensionOfALostLeaseIsRefusedAndLeavesTheNewHolder() {
		String key = uniqueKey("extend-lost");
		ReactiveLockHandle stale = lock(key, SHORT_LEASE_ON_A_FRESH_KEY);
		ReactiveLockHandle current = lock(key, LONG_WAIT);
		StepVerifier.create(stale.extend(LONG_LEASE))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOfSatisfying(LockLeaseLostException.class,
					(lost) -> assertThat(lost.getKey()).endsWith(key)))
			.verify(TIMEOUT);
		StepVerifier.create(current.release()).verifyComplete();
		assertThat(acquiredElsewhere(key)).as("the stale extension kept nothing").isTrue();
	}

	@Test
	void waitTimeIsHonoured() {
		String key = uniqueKey("deadline");
		Duration waitTime = Duration.ofMillis(300);
		LockOptions shortWait = new LockOptions(waitTime, LONG_LEASE);
		ReactiveLockHandle held = lock(key, NO_WAIT);
		long start = System.nanoTime();
		StepVerifier.create(client().lock(key, shortWait))
			.expectErrorSatisfies(
					(ex) -> assertThat(ex).isInstanceOfSatisfying(LockNotAcquiredException.class, (notAcquired) -> {
						assertThat(notAcquired.getKey()).endsWith(key);
						assertThat(notAcquired.getWaited()).isGreaterThanOrEqualTo(waitTime);
					}))
			.verify(TIMEOUT);
		assertThat(System.nanoTime() - start).as("gave up no earlier than the wait time")
			.isGreaterThanOrEqualTo(waitTime.toNanos());
		start = System.nanoTime();
		StepVerifier.create(client().tryLock(key, shortWait)).verifyComplete();
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(waitTime.toNanos());
		AtomicBoolean ran = new AtomicBoolean();
		StepVerifier.create(client().withLock(key, shortWait, Mono.fromRunnable(() -> ran.set(true))))
			.verifyError(LockNotAcquiredException.class);
		assertThat(ran).as("work run without the lock").isFalse();
		StepVerifier.create(held.release()).verifyComplete();
	}

	@Test
	void releaseIsIdempotent() {
		String key = uniqueKey("idempotent");
		ReactiveLockHandle handle = lock(key, NO_WAIT);
		StepVerifier.create(handle.release()).verifyComplete();
		assertThat(handle.isReleased()).isTrue();
		ReactiveLockHandle next = lock(key, NO_WAIT);
		StepVerifier.create(handle.release()).verifyComplete();
		assertThat(acquiredElsewhere(key)).as("second release changed nothing").isFalse();
		StepVerifier.create(next.release()).verifyComplete();
	}

	@Test
	void workThatErrorsStillReleasesAndItsErrorPropagatesUnchanged() {
		String key = uniqueKey("errors");
		IllegalStateException failure = new IllegalStateException("boom");
		StepVerifier.create(client().withLock(key, NO_WAIT, Mono.error(failure)))
			.expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(failure))
			.verify(TIMEOUT);
		assertThat(acquiredElsewhere(key)).isTrue();
		StepVerifier.create(client().withLock(key, NO_WAIT, Flux.just(1).concatWith(Flux.error(failure))))
			.expectNext(1)
			.expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(failure))
			.verify(TIMEOUT);
		assertThat(acquiredElsewhere(key)).isTrue();
	}

	@Test
	void withLockReturnsTheWorksResultWhileHoldingTheLock() {
		String key = uniqueKey("with-lock");
		Mono<String> work = acquiresElsewhere(key).map((other) -> other ? "not exclusive" : "exclusive");
		StepVerifier.create(client().withLock(key, NO_WAIT, work)).expectNext("exclusive").verifyComplete();
		assertThat(acquiredElsewhere(key)).as("released after the work").isTrue();
	}

	@Test
	void sameChainReentersAndTheLockStaysUntilTheOutermostWorkEnds() {
		String key = uniqueKey("reentrant");
		Mono<List<Object>> nested = client().withLock(key, NO_WAIT,
				ReactiveLockContext.fencingToken()
					.flatMap((outer) -> client().withLock(key, NO_WAIT, ReactiveLockContext.fencingToken())
						.flatMap((inner) -> acquiresElsewhere(key).map((other) -> List.of(outer, inner, other)))));
		List<Object> seen = nested.block(TIMEOUT);
		assertThat(seen).as("outer token, inner token, acquired elsewhere after the inner work").hasSize(3);
		assertThat(seen.get(1)).as("the inner hold is the outer one").isEqualTo(seen.get(0));
		assertThat(seen.get(2)).as("still held after the inner work").isEqualTo(Boolean.FALSE);
		assertThat(acquiredElsewhere(key)).as("released after the outer work").isTrue();
	}

	@Test
	void reentryAfterTheLeaseRanOutFailsClosed() {
		String key = uniqueKey("reentry-expired");
		ReactiveLockHandle outer = lock(key, SHORT_LEASE_ON_A_FRESH_KEY);
		ReactiveLockHandle other = lock(key, LONG_WAIT);
		assertThat(outer.isLeaseLost()).isTrue();
		AtomicBoolean ran = new AtomicBoolean();
		Mono<Object> reentry = client().withLock(key, NO_WAIT, Mono.fromRunnable(() -> ran.set(true)))
			.contextWrite((context) -> ReactiveLockContext.with(context, outer));
		StepVerifier.create(reentry).verifyError(LockLeaseLostException.class);
		assertThat(ran).as("work run under a lost lease").isFalse();
		StepVerifier.create(outer.release()).verifyError(LockLeaseLostException.class);
		StepVerifier.create(other.release()).verifyComplete();
	}

	@Test
	void everyGrantGetsAGreaterFencingToken() {
		String key = uniqueKey("fence");
		long previous = 0;
		for (int i = 0; i < 6; i++) {
			long token;
			if (i % 2 == 0) {
				ReactiveLockHandle handle = lock(key, NO_WAIT);
				token = handle.fencingToken();
				StepVerifier.create(handle.release()).verifyComplete();
			}
			else {
				token = client().withLock(key, NO_WAIT, ReactiveLockContext.fencingToken()).block(TIMEOUT);
			}
			assertThat(token).as("grant %d", i).isGreaterThan(previous);
			previous = token;
		}
	}

	@Test
	void concurrentChainsTakeTurnsWithIncreasingFencingTokensAndNoOverlap() {
		String key = uniqueKey("turns");
		LockOptions renewing = LockOptions.renewing(Duration.ofSeconds(20));
		int chains = 4;
		int rounds = 25;
		Queue<long[]> holds = new ConcurrentLinkedQueue<>();
		AtomicInteger counter = new AtomicInteger();
		Mono<long[]> hold = Mono.defer(() -> {
			long start = System.nanoTime();
			int before = counter.get();
			return ReactiveLockContext.fencingToken().delayElement(Duration.ofMillis(1)).map((token) -> {
				// Read, then write: a lost update if two holds overlapped.
				counter.set(before + 1);
				return new long[] { start, System.nanoTime(), token };
			});
		});
		Flux<long[]> all = Flux.range(0, chains)
			.flatMap((chain) -> Flux.range(0, rounds).concatMap((round) -> client().withLock(key, renewing, hold)),
					chains)
			.doOnNext(holds::add);
		StepVerifier.create(all.then()).expectComplete().verify(Duration.ofSeconds(120));
		assertThat(counter).hasValue(chains * rounds);
		List<long[]> byStart = new ArrayList<>(holds);
		byStart.sort(Comparator.comparingLong((long[] interval) -> interval[0]));
		assertThat(byStart).hasSize(chains * rounds);
		for (int i = 1; i < byStart.size(); i++) {
			assertThat(byStart.get(i)[0]).as("hold %d starts after the previous one ended", i)
				.isGreaterThan(byStart.get(i - 1)[1]);
			assertThat(byStart.get(i)[2]).as("hold %d has a greater fencing token", i)
				.isGreaterThan(byStart.get(i - 1)[2]);
		}
		assertThat(acquiredElsewhere(key)).as("released in the end").isTrue();
	}

	@Test
	void cancellingAWaitLeavesNoPlaceInTheQueue() {
		String key = uniqueKey("cancel-wait");
		ReactiveLockHandle held = lock(key, NO_WAIT);
		AtomicBoolean acquired = new AtomicBoolean();
		Disposable waiting = client().lock(key, LONG_WAIT).subscribe((handle) -> acquired.set(true));
		awaitTrue("the acquisition waits", () -> waitingAcquirers(held.key()).map((n) -> n == 1));
		waiting.dispose();
		awaitTrue("the cancelled acquisition left the queue", () -> queueLength(held.key())
			.zipWith(waitingAcquirers(held.key()), (queued, waiters) -> queued == 0 && waiters == 0));
		StepVerifier.create(held.release()).verifyComplete();
		assertThat(acquiredElsewhere(key)).as("the release handed the lock to nobody").isTrue();
		assertThat(acquired).as("the cancelled acquisition got the lock").isFalse();
	}

	@Test
	void cancellingTheWorkReleasesTheLock() {
		String key = uniqueKey("cancel-hold");
		AtomicBoolean started = new AtomicBoolean();
		Disposable work = client().withLock(key, NO_WAIT, Mono.fromRunnable(() -> started.set(true)).then(Mono.never()))
			.subscribe();
		awaitTrue("the work runs", () -> Mono.just(started.get()));
		assertThat(acquiredElsewhere(key)).as("held while the work runs").isFalse();
		work.dispose();
		awaitTrue("released after the cancel", () -> acquiresElsewhere(key));
	}

	@Test
	void leaseLostWhileAMonoRunsEndsItWithLeaseLost() {
		String key = uniqueKey("lost-mono");
		AtomicBoolean cancelled = new AtomicBoolean();
		Mono<Object> work = Mono.never().doOnCancel(() -> cancelled.set(true));
		StepVerifier.create(client().withLock(key, SHORT_LEASE_ON_A_FRESH_KEY, work))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOfSatisfying(LockLeaseLostException.class,
					(lost) -> assertThat(lost.getKey()).endsWith(key)))
			.verify(TIMEOUT);
		assertThat(cancelled).as("the work was cancelled").isTrue();
	}

	@Test
	void leaseLostWhileAFluxRunsEndsItWithLeaseLost() {
		String key = uniqueKey("lost-flux");
		AtomicBoolean cancelled = new AtomicBoolean();
		Flux<Long> work = Flux.interval(Duration.ofMillis(50)).doOnCancel(() -> cancelled.set(true));
		StepVerifier.create(client().withLock(key, SHORT_LEASE_ON_A_FRESH_KEY, work))
			.thenConsumeWhile((tick) -> true)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOfSatisfying(LockLeaseLostException.class,
					(lost) -> assertThat(lost.getKey()).endsWith(key)))
			.verify(TIMEOUT);
		assertThat(cancelled).as("the work was cancelled").isTrue();
	}

	@Test
	void fluxHoldsTheLockUntilItCompletes() {
		String key = uniqueKey("flux");
		Flux<String> work = Flux.range(0, 3)
			.concatMap((i) -> Mono.delay(Duration.ofMillis(20)).then(acquiresElsewhere(key)))
			.map((other) -> other ? "not exclusive" : "exclusive");
		StepVerifier.create(client().withLock(key, NO_WAIT, work))
			.expectNext("exclusive", "exclusive", "exclusive")
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(acquiredElsewhere(key)).as("released after the Flux completed").isTrue();
	}

	/**
	 * Returns a key no other test uses, so tests can share a server.
	 */
	private static String uniqueKey(String name) {
		return "test:" + name + ":" + UUID.randomUUID();
	}

	private ReactiveLockHandle lock(String key, LockOptions options) {
		ReactiveLockHandle handle = client().lock(key, options).block(TIMEOUT);
		assertThat(handle).as("lock of %s", key).isNotNull();
		return handle;
	}

	/**
	 * Returns whether another chain acquires the lock at once; if it does, it releases it
	 * before answering.
	 */
	private Mono<Boolean> acquiresElsewhere(String key) {
		return client().tryLock(key, NO_WAIT)
			.flatMap((handle) -> handle.release().thenReturn(Boolean.TRUE))
			.defaultIfEmpty(Boolean.FALSE);
	}

	private boolean acquiredElsewhere(String key) {
		return Boolean.TRUE.equals(acquiresElsewhere(key).block(TIMEOUT));
	}

	/**
	 * Polls the condition, on Reactor's timer, until it holds.
	 */
	private static void awaitTrue(String description, Supplier<Mono<Boolean>> condition) {
		// Ticks that come while a check is still running are dropped, not overflowed.
		Boolean held = Flux.interval(Duration.ZERO, Duration.ofMillis(20))
			.onBackpressureDrop()
			.concatMap((tick) -> condition.get())
			.filter(Boolean::booleanValue)
			.next()
			.timeout(Duration.ofSeconds(10), Mono.just(Boolean.FALSE))
			.block(TIMEOUT);
		assertThat(held).as(description).isTrue();
	}

}
