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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.redlock.ReactiveRedLockClient;
import dev.distlock.redlock.RedLockClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 7, on the reactive path ({@link ReactiveRedLockClient}, two instances on
 * 3 nodes): a minority of the nodes (1 of 3) killed while reactive chains of both
 * instances take turns on one key keeps exclusion (no lost update, no overlapping holds,
 * tokens increasing in the order of the holds) and fails no call; a majority (2 of 3)
 * killed while one instance holds the key and the other's acquisitions wait fails closed:
 * every waiting acquisition errors with {@link LockUnavailableException} soon after the
 * outage began rather than at the end of its 10 s wait, none runs its work, the holder's
 * work ends with {@link LockLeaseLostException} once its validity ran out, and locks are
 * granted again once the nodes are back. The controls show each can fail: the same chains
 * on a single-server reactive lock on the killed node fail while it is down, and the same
 * waiters with the nodes up wait their whole wait time and end with
 * {@link LockNotAcquiredException}, not unavailable.
 */
class RedLockReactiveFaultTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	/** The random pause between attempts (up to 30 ms) and scheduling under load. */
	private static final long BOUND_AFTER_OUTAGE_MS = NODE_TIMEOUT.toMillis() + 30 + 400;

	private static final int CHAINS_PER_INSTANCE = 3;

	private static final int ROUNDS = 30;

	private RedLockFaultNodes nodes;

	private final List<ReactiveRedLockClient> reactiveClients = new ArrayList<>();

	private final List<RedLockClient> ownClients = new ArrayList<>();

	@BeforeEach
	void start() {
		this.nodes = RedLockFaultNodes.start(3);
	}

	@AfterEach
	void stop() {
		this.reactiveClients.forEach(ReactiveRedLockClient::close);
		this.ownClients.forEach(RedLockClient::close);
		this.nodes.close();
	}

	private ReactiveRedLockClient instance() {
		return reactive(this.nodes.client(NODE_TIMEOUT));
	}

	/**
	 * An instance whose waiting acquisitions are counted, with the settings of
	 * {@link RedLockFaultNodes#client}.
	 */
	private ReactiveRedLockClient countingWaiters(AtomicInteger waiting) {
		RedLockClient client = RedLockClient.builder(this.nodes.urls())
			// Fresh nodes count at once, as RedLockFaultNodes#client's do: this
			// scenario's
			// subject is not restarts.
			.appendfsyncAlways(true)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(5)))
			.nodeTimeout(NODE_TIMEOUT)
			.renewalLease(Duration.ofSeconds(3))
			.listener(new LockListener() {

				@Override
				public void startedWaiting(String key, LockOptions options) {
					waiting.incrementAndGet();
				}

			})
			.build();
		this.ownClients.add(client);
		client.checkNodes(Duration.ofSeconds(5));
		return reactive(client);
	}

	private ReactiveRedLockClient reactive(RedLockClient client) {
		ReactiveRedLockClient reactive = new ReactiveRedLockClient(client);
		this.reactiveClients.add(reactive);
		return reactive;
	}

	@Test
	void minorityKilledDuringReactiveHoldsKeepsExclusion() {
		ReactiveLockClient a = instance();
		ReactiveLockClient b = instance();
		Turns turns = takeTurns(List.of(a, b), "redlock:reactive-minority:" + UUID.randomUUID(),
				() -> this.nodes.node(1).kill());
		Figures.record("redlock reactive: minority killed (1 of 3) during reactive holds",
				"2 instances x %d chains x %d holds: %d holds, counter %d, %d overlapping, %d tokens out of order, "
						+ "%d failed calls (%s); %d holds before the kill, %d after; slowest hold %d ms",
				CHAINS_PER_INSTANCE, ROUNDS, turns.holds(), turns.counter.get(), turns.overlaps(),
				turns.tokensOutOfOrder(), turns.failures.size(), turns.failures, turns.beforeFault.get(),
				turns.holds() - turns.beforeFault.get(), turns.slowestMs());
		assertThat(turns.failures).as("failed calls").isEmpty();
		assertThat(turns.holds()).isEqualTo(2 * CHAINS_PER_INSTANCE * ROUNDS);
		assertThat(turns.counter).as("read-modify-write under the lock").hasValue(turns.holds());
		assertThat(turns.overlaps()).as("overlapping holds").isZero();
		assertThat(turns.tokensOutOfOrder()).as("tokens not increasing with the holds").isZero();
		assertThat(turns.holds() - turns.beforeFault.get()).as("holds after the kill").isPositive();
	}

	@Test
	void controlTheSameChainsOnASingleServerLockOfTheKilledNodeFail() {
		try (LockApps apps = new LockApps()) {
			ReactiveLockClient single = apps.start(this.nodes.node(1).port()).getBean(ReactiveLockClient.class);
			Turns turns = takeTurns(List.of(single), "redlock:reactive-control:" + UUID.randomUUID(),
					() -> this.nodes.node(1).kill());
			long unavailable = turns.failures.stream().filter("LockUnavailableException"::equals).count();
			Figures.record("redlock reactive: minority killed (control: single-server reactive lock on that node)",
					"%d holds (%d before the kill), %d of %d chains ended by a failed call (%s), %d by "
							+ "LockUnavailableException",
					turns.holds(), turns.beforeFault.get(), turns.failures.size(), CHAINS_PER_INSTANCE, turns.failures,
					unavailable);
			assertThat(unavailable).as("calls failed with LockUnavailableException").isPositive();
		}
	}

	@Test
	void majorityLostDuringReactiveHoldsFailsClosed() {
		ReactiveLockClient a = instance();
		AtomicInteger waiting = new AtomicInteger();
		ReactiveLockClient b = countingWaiters(waiting);
		String key = "redlock:reactive-majority:" + UUID.randomUUID();
		AtomicBoolean held = new AtomicBoolean();
		Queue<String> holderEnd = new ConcurrentLinkedQueue<>();
		Disposable holder = a
			.withLock(key, LockOptions.renewing(Duration.ZERO),
					Mono.fromRunnable(() -> held.set(true)).then(Mono.never()))
			.subscribe(null, (ex) -> holderEnd.add(outcome(ex)));
		awaitTrue(held::get);
		Waiters waiters = waiters(b, key, Duration.ofSeconds(10));
		awaitTrue(() -> waiting.get() == Waiters.COUNT);
		this.nodes.node(1).kill();
		long outage = this.nodes.node(2).kill();
		List<String> outcomes = waiters.outcomes();
		long latestMs = (waiters.latestEnd.get() - outage) / 1_000_000;
		awaitTrue(() -> !holderEnd.isEmpty());
		long holderEndedMs = (System.nanoTime() - outage) / 1_000_000;
		holder.dispose();
		this.nodes.node(1).restart();
		long back = this.nodes.node(2).restart();
		Long token = null;
		long deadline = back + Duration.ofSeconds(10).toNanos();
		while (token == null && System.nanoTime() - deadline < 0) {
			token = b
				.withLock(key + ":after", new LockOptions(Duration.ZERO, Duration.ofSeconds(10)),
						ReactiveLockContext.fencingToken())
				.onErrorResume((ex) -> Mono.empty())
				.block(Duration.ofSeconds(5));
			if (token == null) {
				Pause.millis(20);
			}
		}
		long recoveredMs = (System.nanoTime() - back) / 1_000_000;
		Figures.record("redlock reactive: majority lost (2 of 3) during reactive holds",
				"%d waiting acquisitions (10 s wait): %s, the last %d ms after the outage began (bound %d ms), work run "
						+ "%d times; the holder's work ended with %s within %d ms (renewal lease 3 s); granted again %d ms "
						+ "after the nodes returned: %s",
				outcomes.size(), outcomes, latestMs, BOUND_AFTER_OUTAGE_MS, waiters.ran.get(), holderEnd, holderEndedMs,
				recoveredMs, token != null);
		assertThat(outcomes).as("waiting acquisitions").hasSize(Waiters.COUNT).containsOnly("LockUnavailableException");
		assertThat(latestMs).as("last waiter's end after the outage began, ms")
			.isLessThanOrEqualTo(BOUND_AFTER_OUTAGE_MS);
		assertThat(waiters.ran).as("work run without a majority").hasValue(0);
		assertThat(holderEnd).as("how the holder's work ended").containsExactly("LockLeaseLostException");
		assertThat(token).as("a grant once the nodes are back").isNotNull();
	}

	@Test
	void controlWaitersWaitTheirWholeWaitTimeWhileTheNodesAreUp() {
		ReactiveLockClient a = instance();
		AtomicInteger waiting = new AtomicInteger();
		ReactiveLockClient b = countingWaiters(waiting);
		String key = "redlock:reactive-majority-control:" + UUID.randomUUID();
		AtomicBoolean held = new AtomicBoolean();
		Disposable holder = a
			.withLock(key, LockOptions.renewing(Duration.ZERO),
					Mono.fromRunnable(() -> held.set(true)).then(Mono.never()))
			.subscribe();
		awaitTrue(held::get);
		long start = System.nanoTime();
		Waiters waiters = waiters(b, key, Duration.ofSeconds(1));
		List<String> outcomes = waiters.outcomes();
		long latestMs = (waiters.latestEnd.get() - start) / 1_000_000;
		holder.dispose();
		Figures.record("redlock reactive: majority lost (control: nodes up)",
				"%d waiting acquisitions (1 s wait): %s, the last after %d ms", outcomes.size(), outcomes, latestMs);
		assertThat(outcomes).containsOnly("LockNotAcquiredException");
		assertThat(latestMs).as("ms until the last waiter ended").isGreaterThanOrEqualTo(1000);
	}

	/**
	 * Chains of each client take turns on the key, each hold a read-modify-write of a
	 * counter with a pause between read and write; the fault is injected once a third of
	 * the holds are done. A chain ends at its first failed call.
	 */
	private static Turns takeTurns(List<ReactiveLockClient> clients, String key, Runnable fault) {
		Turns turns = new Turns();
		int total = clients.size() * CHAINS_PER_INSTANCE * ROUNDS;
		LockOptions options = LockOptions.renewing(Duration.ofSeconds(20));
		Mono<long[]> hold = Mono.defer(() -> {
			long start = System.nanoTime();
			int before = turns.counter.get();
			return ReactiveLockContext.fencingToken().delayElement(Duration.ofMillis(2)).map((token) -> {
				turns.counter.set(before + 1);
				return new long[] { start, System.nanoTime(), token };
			});
		});
		AtomicBoolean faulted = new AtomicBoolean();
		Flux<long[]> all = Flux.fromIterable(clients)
			.flatMap((client) -> Flux.range(0, CHAINS_PER_INSTANCE)
				.flatMap((chain) -> Flux.range(0, ROUNDS).concatMap((round) -> {
					long called = System.nanoTime();
					return client.withLock(key, options, hold).doOnNext((interval) -> {
						turns.slowestNanos.accumulateAndGet(System.nanoTime() - called, Math::max);
						if (turns.holds.size() + 1 == total / 3 && faulted.compareAndSet(false, true)) {
							turns.beforeFault.set(turns.holds.size() + 1);
							Schedulers.boundedElastic().schedule(fault);
						}
					});
				}).onErrorResume((ex) -> {
					// A chain ends at its first failure.
					turns.failures.add(outcome(ex));
					return Mono.empty();
				})), Integer.MAX_VALUE)
			.doOnNext(turns.holds::add);
		all.then().block(Duration.ofSeconds(180));
		return turns;
	}

	private Waiters waiters(ReactiveLockClient client, String key, Duration waitTime) {
		Waiters waiters = new Waiters();
		LockOptions options = new LockOptions(waitTime, Duration.ofSeconds(10));
		for (int i = 0; i < Waiters.COUNT; i++) {
			client.withLock(key, options, Mono.fromRunnable(waiters.ran::incrementAndGet))
				.subscribe(null, (ex) -> waiters.ended(outcome(ex)), () -> waiters.ended("ran"));
		}
		return waiters;
	}

	/**
	 * The name of the exception a call ended with; RedLock's own subclass of
	 * {@link LockUnavailableException}, which names the nodes, counts as what callers
	 * catch.
	 */
	private static String outcome(Throwable ex) {
		return (ex instanceof LockUnavailableException) ? "LockUnavailableException" : ex.getClass().getSimpleName();
	}

	private static void awaitTrue(java.util.function.BooleanSupplier condition) {
		long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Not true after 15 s");
			}
			Pause.millis(5);
		}
	}

	/** The holds of a run of turns, and what failed. */
	private static final class Turns {

		final Queue<long[]> holds = new ConcurrentLinkedQueue<>();

		final Queue<String> failures = new ConcurrentLinkedQueue<>();

		final AtomicInteger counter = new AtomicInteger();

		final AtomicInteger beforeFault = new AtomicInteger();

		final AtomicLong slowestNanos = new AtomicLong();

		int holds() {
			return this.holds.size();
		}

		long slowestMs() {
			return this.slowestNanos.get() / 1_000_000;
		}

		private List<long[]> byStart() {
			List<long[]> byStart = new ArrayList<>(this.holds);
			byStart.sort(Comparator.comparingLong((long[] interval) -> interval[0]));
			return byStart;
		}

		int overlaps() {
			List<long[]> byStart = byStart();
			int overlaps = 0;
			for (int i = 1; i < byStart.size(); i++) {
				if (byStart.get(i)[0] <= byStart.get(i - 1)[1]) {
					overlaps++;
				}
			}
			return overlaps;
		}

		int tokensOutOfOrder() {
			List<long[]> byStart = byStart();
			int outOfOrder = 0;
			for (int i = 1; i < byStart.size(); i++) {
				if (byStart.get(i)[2] <= byStart.get(i - 1)[2]) {
					outOfOrder++;
				}
			}
			return outOfOrder;
		}

	}

	/** Acquisitions waiting for a held key, each ending in an outcome. */
	private static final class Waiters {

		static final int COUNT = 4;

		final AtomicInteger ran = new AtomicInteger();

		final AtomicLong latestEnd = new AtomicLong();

		final Queue<String> ends = new ConcurrentLinkedQueue<>();

		void ended(String outcome) {
			this.latestEnd.accumulateAndGet(System.nanoTime(), Math::max);
			this.ends.add(outcome);
		}

		List<String> outcomes() {
			awaitTrue(() -> this.ends.size() == COUNT);
			return List.copyOf(this.ends);
		}

	}

}
