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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redlock.RedLockClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 7: one of 3 RedLock nodes behind a {@link FaultProxy}, with the reply to
 * one acquire (phase 1), one fencing write (phase 2) or one release lost, or a release
 * request lost: exclusion holds, every call ends within the node timeout plus a slack for
 * scheduling, and no lock stays stranded on the faulty node after its release (the
 * background retry frees it, well before its 10 s lease). A node blackholed, paused or
 * killed is in {@link RedLockNodeFaultTests}, with the control that shows a fault of one
 * node does stall a client of that node alone.
 */
class RedLockLostReplyTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	/** For scheduling on a loaded 2-core machine. */
	private static final Duration SLACK = Duration.ofMillis(150);

	private static final Duration BOUND = NODE_TIMEOUT.plus(SLACK);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));

	private RedLockFaultNodes nodes;

	private RedLockClient holderA;

	private RedLockClient otherB;

	@BeforeEach
	void start() {
		this.nodes = RedLockFaultNodes.startWithProxyInFrontOfTheFirst(3);
		this.holderA = this.nodes.client(NODE_TIMEOUT);
		this.otherB = this.nodes.client(NODE_TIMEOUT);
		// Load the scripts on every node, so that the faults meet EVALSHA.
		this.holderA.lock("redlock:warm-up", NO_WAIT).release();
		this.otherB.lock("redlock:warm-up", NO_WAIT).release();
	}

	@AfterEach
	void stop() {
		this.nodes.close();
	}

	@Test
	void lostAcquireReplyFromOneNodeChangesNothingAndStrandsNoLock() {
		String key = "redlock:lost-acquire:" + UUID.randomUUID();
		ReplyDrop drop = this.nodes.proxy().dropNextReplyTo(RedLockFaultNodes.scriptSha("acquire.lua"));
		lostReplyRun("phase 1 (acquire)", key, drop, true);
	}

	@Test
	void lostPhaseTwoReplyFromOneNodeChangesNothingAndStrandsNoLock() {
		String key = "redlock:lost-fence:" + UUID.randomUUID();
		ReplyDrop drop = this.nodes.proxy().dropNextReplyTo(RedLockFaultNodes.scriptSha("fence.lua"));
		lostReplyRun("phase 2 (fence)", key, drop, true);
	}

	@Test
	void lostReleaseReplyFromOneNodeChangesNothingAndStrandsNoLock() {
		String key = "redlock:lost-release:" + UUID.randomUUID();
		LockHandle heldA = this.holderA.lock(key, NO_WAIT);
		ReplyDrop drop = this.nodes.proxy().dropNextReplyTo(RedLockFaultNodes.scriptSha("release.lua"));
		releaseRun("release reply", key, heldA, drop);
	}

	@Test
	void lostReleaseRequestToOneNodeIsRetriedInTheBackground() {
		String key = "redlock:lost-release-request:" + UUID.randomUUID();
		LockHandle heldA = this.holderA.lock(key, NO_WAIT);
		ReplyDrop drop = this.nodes.proxy().dropNextRequest(RedLockFaultNodes.scriptSha("release.lua"));
		releaseRun("release request", key, heldA, drop);
	}

	private void lostReplyRun(String what, String key, ReplyDrop drop, boolean release) {
		TimedCalls calls = new TimedCalls();
		Optional<LockHandle> heldA = calls.time(() -> this.holderA.tryLock(key, NO_WAIT));
		boolean fired = drop.await(Duration.ofSeconds(2));
		boolean excluded = calls.time(() -> this.otherB.tryLock(key, NO_WAIT)).isEmpty();
		assertThat(heldA).as("A granted by the two other nodes").isPresent();
		calls.time(() -> {
			heldA.get().release();
			return true;
		});
		long freedMs = awaitFreedOnNodeZero(key);
		Optional<LockHandle> heldB = calls.time(() -> this.otherB.tryLock(key, NO_WAIT));
		Figures.record("redlock lost reply from 1 of 3 nodes: " + what,
				"fault fired %s; A granted %s, B excluded %s, B granted after A's release %s (token above A's %s); "
						+ "A's key gone from the faulty node %d ms after the release (lease 10000 ms); "
						+ "slowest of %d calls %d ms (node timeout %d ms + slack %d ms)",
				fired, heldA.isPresent(), excluded, heldB.isPresent(),
				heldB.isPresent() && heldB.get().fencingToken() > heldA.get().fencingToken(), freedMs, calls.count(),
				calls.slowestMs(), NODE_TIMEOUT.toMillis(), SLACK.toMillis());
		assertThat(fired).as("the reply was dropped").isTrue();
		assertThat(excluded).as("B excluded while A held").isTrue();
		assertThat(heldB).as("B after A's release").isPresent();
		assertThat(heldB.get().fencingToken()).isGreaterThan(heldA.get().fencingToken());
		assertThat(freedMs).as("ms until the faulty node dropped A's key").isLessThan(2000);
		assertThat(calls.slowestMs()).as("slowest call, ms").isLessThanOrEqualTo(BOUND.toMillis());
		heldB.get().release();
	}

	private void releaseRun(String what, String key, LockHandle heldA, ReplyDrop drop) {
		TimedCalls calls = new TimedCalls();
		calls.time(() -> {
			heldA.release();
			return true;
		});
		boolean fired = drop.await(Duration.ofSeconds(2));
		boolean heldOnNodeZeroAfterRelease = this.nodes.holdsKey(0, key);
		Optional<LockHandle> heldB = calls.time(() -> this.otherB.tryLock(key, NO_WAIT));
		if (heldB.isPresent()) {
			heldB.get().release();
		}
		long freedMs = awaitFreedOnNodeZero(key);
		Figures.record("redlock lost " + what + " to 1 of 3 nodes",
				"fault fired %s; key still on the faulty node when release returned: %s; B granted at once %s "
						+ "(token above A's %s); A's key gone from the faulty node %d ms after the release "
						+ "(lease 10000 ms); slowest of %d calls %d ms",
				fired, heldOnNodeZeroAfterRelease, heldB.isPresent(),
				heldB.isPresent() && heldB.get().fencingToken() > heldA.fencingToken(), freedMs, calls.count(),
				calls.slowestMs());
		assertThat(fired).as("the fault fired").isTrue();
		assertThat(heldB).as("B granted after A's release").isPresent();
		assertThat(heldB.get().fencingToken()).isGreaterThan(heldA.fencingToken());
		assertThat(freedMs).as("ms until the faulty node dropped A's key").isLessThan(2000);
		assertThat(calls.slowestMs()).as("slowest call, ms").isLessThanOrEqualTo(BOUND.toMillis());
	}

	/** Waits until node 0 no longer has the key; returns how long that took, in ms. */
	private long awaitFreedOnNodeZero(String key) {
		long start = System.nanoTime();
		long deadline = start + Duration.ofSeconds(12).toNanos();
		while (this.nodes.holdsKey(0, key) && System.nanoTime() - deadline < 0) {
			Pause.millis(5);
		}
		return (System.nanoTime() - start) / 1_000_000;
	}

}
