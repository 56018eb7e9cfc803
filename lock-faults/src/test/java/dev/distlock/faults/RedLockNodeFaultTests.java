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
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redlock.RedLockClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 7: RedLock nodes blackholed (behind a {@link FaultProxy} that keeps
 * connections open and delivers nothing), paused ({@code SIGSTOP}) or killed
 * ({@code SIGKILL}), on 3 and on 5 nodes. A minority (1 of 3, 2 of 5) while a lock is
 * held: exclusion holds, every call ends within the node timeout plus a slack for
 * scheduling (a majority decides without the faulty nodes), and once the fault ends (the
 * proxy passes again, the server continues, or it restarts empty) the faulty nodes take
 * part in grants again. A majority (2 of 3, 3 of 5): every call fails closed with
 * {@link LockUnavailableException}, whatever its wait time, within the node timeout plus
 * the slack (the fastest of them within 60 ms of it), and locking works again once the
 * fault ends. The control shows each fault does stall a client of one faulty node: a
 * single-server distlock client of it fails only after its command timeout.
 */
class RedLockNodeFaultTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	/** For scheduling on a loaded 2-core machine. */
	private static final Duration SLACK = Duration.ofMillis(150);

	private static final Duration BOUND = NODE_TIMEOUT.plus(SLACK);

	/**
	 * For the fastest of several calls that wait for a node timeout: less than a tick of
	 * Netty's default {@code HashedWheelTimer} (100 ms), on which Lettuce expires
	 * commands.
	 */
	private static final Duration FASTEST_SLACK = Duration.ofMillis(60);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));

	private RedLockFaultNodes nodes;

	@AfterEach
	void stop() {
		if (this.nodes != null) {
			this.nodes.close();
		}
	}

	static Stream<Arguments> minorities() {
		return Stream.of(3, 5).flatMap((count) -> Stream.of(Fault.values()).map((fault) -> Arguments.of(count, fault)));
	}

	@ParameterizedTest(name = "{1} minority of {0} nodes")
	@MethodSource("minorities")
	void faultyMinorityChangesNoExclusionAndNoCallWaitsLongerThanANodeTimeout(int count, Fault fault) {
		int minority = (count - 1) / 2;
		this.nodes = RedLockFaultNodes.startWithProxies(count, minority);
		RedLockClient holderA = this.nodes.client(NODE_TIMEOUT);
		RedLockClient otherB = this.nodes.client(NODE_TIMEOUT);
		// Load the scripts on every node, so that the faults meet EVALSHA.
		holderA.lock("redlock:warm-up", NO_WAIT).release();
		otherB.lock("redlock:warm-up", NO_WAIT).release();
		String key = "redlock:minority:" + UUID.randomUUID();
		TimedCalls calls = new TimedCalls();
		LockHandle heldA = holderA.lock(key, NO_WAIT);
		for (int i = 0; i < minority; i++) {
			fault.begin(this.nodes, i);
		}
		int excluded = 0;
		for (int i = 0; i < 20; i++) {
			if (calls.time(() -> otherB.tryLock(key, NO_WAIT)).isEmpty()) {
				excluded++;
			}
		}
		calls.time(() -> {
			heldA.release();
			return true;
		});
		Optional<LockHandle> heldB = calls.time(() -> otherB.tryLock(key, NO_WAIT));
		int grantsDuringTheFault = 0;
		for (int i = 0; i < 10; i++) {
			String other = key + ":" + i;
			Optional<LockHandle> taken = calls.time(() -> holderA.tryLock(other, NO_WAIT));
			if (taken.isPresent() && calls.time(() -> otherB.tryLock(other, NO_WAIT)).isEmpty()) {
				grantsDuringTheFault++;
				calls.time(() -> {
					taken.get().release();
					return true;
				});
			}
		}
		String what = "redlock " + fault.name().toLowerCase() + " minority (" + minority + " of " + count + ")";
		Figures.record(what,
				"B excluded in %d of 20 attempts while A held; B granted after A's release: %s; %d of 10 grants "
						+ "exclusive during the fault; slowest of %d calls %d ms (node timeout %d ms + slack %d ms)",
				excluded, heldB.isPresent(), grantsDuringTheFault, calls.count(), calls.slowestMs(),
				NODE_TIMEOUT.toMillis(), SLACK.toMillis());
		assertThat(excluded).as("attempts of B excluded while A held").isEqualTo(20);
		assertThat(heldB).as("B after A's release").isPresent();
		assertThat(heldB.get().fencingToken()).isGreaterThan(heldA.fencingToken());
		assertThat(grantsDuringTheFault).as("exclusive grants during the fault").isEqualTo(10);
		assertThat(calls.slowestMs()).as("slowest call, ms").isLessThanOrEqualTo(BOUND.toMillis());
		heldB.get().release();
		// The fault ends: the faulty nodes take part in grants again.
		long ended = System.nanoTime();
		for (int i = 0; i < minority; i++) {
			fault.end(this.nodes, i);
		}
		String after = key + ":after";
		long deadline = ended + Duration.ofSeconds(10).toNanos();
		boolean onEveryFaultyNode = false;
		while (!onEveryFaultyNode && System.nanoTime() - deadline < 0) {
			LockHandle taken = holderA.lock(after, NO_WAIT);
			onEveryFaultyNode = true;
			for (int i = 0; i < minority; i++) {
				onEveryFaultyNode &= this.nodes.holdsKey(i, after);
			}
			taken.release();
			if (!onEveryFaultyNode) {
				Pause.millis(50);
			}
		}
		long rejoinedMs = (System.nanoTime() - ended) / 1_000_000;
		Figures.record(what + ": after the fault",
				"every faulty node holds a new grant again %s, %d ms after the fault ended", onEveryFaultyNode,
				rejoinedMs);
		assertThat(onEveryFaultyNode).as("the faulty nodes granting again within 10 s of the fault's end").isTrue();
	}

	@ParameterizedTest(name = "{1} majority of {0} nodes")
	@MethodSource("minorities")
	void faultyMajorityFailsClosedWithinANodeTimeoutAndLockingWorksWhenItEnds(int count, Fault fault) {
		int majority = count / 2 + 1;
		this.nodes = RedLockFaultNodes.startWithProxies(count, majority);
		RedLockClient client = this.nodes.client(NODE_TIMEOUT);
		client.lock("redlock:warm-up", NO_WAIT).release();
		String key = "redlock:majority:" + UUID.randomUUID();
		for (int i = 0; i < majority; i++) {
			fault.begin(this.nodes, i);
		}
		TimedCalls calls = new TimedCalls();
		int unavailable = 0;
		long fastestNanos = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			long start = System.nanoTime();
			try {
				calls.time(() -> client.tryLock(key, new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(10))));
			}
			catch (LockUnavailableException ex) {
				unavailable++;
			}
			fastestNanos = Math.min(fastestNanos, System.nanoTime() - start);
		}
		long fastestMs = fastestNanos / 1_000_000;
		long ended = System.nanoTime();
		for (int i = 0; i < majority; i++) {
			fault.end(this.nodes, i);
		}
		Optional<LockHandle> after = Optional.empty();
		long deadline = ended + Duration.ofSeconds(10).toNanos();
		while (after.isEmpty() && System.nanoTime() - deadline < 0) {
			try {
				after = client.tryLock(key, NO_WAIT);
			}
			catch (LockUnavailableException ex) {
				Pause.millis(20);
			}
		}
		long recoveredMs = (System.nanoTime() - ended) / 1_000_000;
		Figures.record("redlock " + fault.name().toLowerCase() + " majority (" + majority + " of " + count + ")",
				"tryLock with a 5 s wait: %d of 5 LockUnavailableException, fastest %d ms (node timeout %d ms + %d ms), "
						+ "slowest %d ms (+ slack %d ms); granted again %s, %d ms after the fault ended",
				unavailable, fastestMs, NODE_TIMEOUT.toMillis(), FASTEST_SLACK.toMillis(), calls.slowestMs(),
				SLACK.toMillis(), after.isPresent(), recoveredMs);
		assertThat(unavailable).as("calls that failed closed").isEqualTo(5);
		assertThat(fastestMs).as("fastest call, ms").isLessThanOrEqualTo(NODE_TIMEOUT.plus(FASTEST_SLACK).toMillis());
		assertThat(calls.slowestMs()).as("slowest call, ms").isLessThanOrEqualTo(BOUND.toMillis());
		assertThat(after).as("granted within 10 s of the fault's end").isPresent();
		after.get().release();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource
	void controlTheFaultStallsASingleServerClientOfThatNodeForItsCommandTimeout(Fault fault) {
		this.nodes = RedLockFaultNodes.startWithProxies(3, 1);
		try (LockApps apps = new LockApps()) {
			LockClient single = apps.client(this.nodes.proxy(0).port(), "spring.data.redis.timeout=500ms");
			single.lock("redlock:control:warm-up", NO_WAIT).release();
			fault.begin(this.nodes, 0);
			if (fault == Fault.KILLED) {
				// A killed server's port refuses connections. The proxy in front of it
				// would accept them and reset each only once it found the server gone,
				// and
				// a client that reconnected in between failed at once rather than
				// waiting.
				this.nodes.proxy(0).resetAll(true);
			}
			long start = System.nanoTime();
			Throwable failure = null;
			try {
				single.tryLock("redlock:control:" + UUID.randomUUID(), NO_WAIT);
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
			long elapsedMs = (System.nanoTime() - start) / 1_000_000;
			fault.end(this.nodes, 0);
			this.nodes.proxy(0).passThrough();
			Figures.record("redlock node " + fault.name().toLowerCase() + " (control: one-server client of that node)",
					"tryLock ended after %d ms with %s", elapsedMs,
					(failure != null) ? failure.getClass().getSimpleName() : "no failure");
			assertThat(failure).isInstanceOf(LockUnavailableException.class);
			assertThat(elapsedMs).as("call, ms").isGreaterThanOrEqualTo(500).isGreaterThan(BOUND.toMillis());
		}
	}

	/** A fault of one node, and its end. */
	enum Fault {

		/** The node's proxy keeps connections open and delivers nothing. */
		BLACKHOLED {

			@Override
			void begin(RedLockFaultNodes nodes, int index) {
				nodes.proxy(index).blackhole();
			}

			/**
			 * Resets the node's connections, then passes again. The proxy dropped what it
			 * read, which leaves a hole in each connection's stream that TCP never leaves
			 * (it delivers every byte late, or resets): a client would match later
			 * replies to the commands whose requests were dropped.
			 */
			@Override
			void end(RedLockFaultNodes nodes, int index) {
				nodes.proxy(index).resetAll(false);
				nodes.proxy(index).passThrough();
			}

		},

		/** The server is stopped ({@code SIGSTOP}) and continued. */
		PAUSED {

			@Override
			void begin(RedLockFaultNodes nodes, int index) {
				nodes.node(index).pause();
			}

			@Override
			void end(RedLockFaultNodes nodes, int index) {
				nodes.node(index).resume();
			}

		},

		/** The server is killed ({@code SIGKILL}) and restarted empty. */
		KILLED {

			@Override
			void begin(RedLockFaultNodes nodes, int index) {
				nodes.node(index).kill();
			}

			@Override
			void end(RedLockFaultNodes nodes, int index) {
				nodes.node(index).restart();
			}

		};

		abstract void begin(RedLockFaultNodes nodes, int index);

		abstract void end(RedLockFaultNodes nodes, int index);

	}

}
