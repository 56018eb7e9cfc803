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
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 3: a waiter stopped ({@code SIGSTOP}) just as the release hands it
 * the lock, and continued after its lease ran out and another waiter took the lock, must
 * not return the lock to its caller while the other holds it, must not share a fencing
 * token with it, and must leave no place behind that strands the lock. A releases only
 * once every thread of B has stopped ({@link WorkerJvm#pause()}): a B still running then
 * would be handed the lock, begin its hold, and be stopped as a holder, which is the
 * controls' fault, not this one; no hold of B may begin before B is continued. The
 * controls pause a holder past its fixed lease, and a waiter only after the hand-over,
 * and show that the interval log does catch the overlap.
 */
class PausedWaiterTests {

	private static RedisNode redis;

	private static WorkerJvm holderA;

	private static WorkerJvm waiterB;

	private static WorkerJvm waiterC;

	private static int runs;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		holderA = WorkerJvm.start("A", properties);
		waiterB = WorkerJvm.start("B", properties);
		waiterC = WorkerJvm.start("C", properties);
	}

	@AfterAll
	static void stop() {
		waiterC.close();
		waiterB.close();
		holderA.close();
		redis.close();
	}

	@Test
	void pausedWaiterHandedTheLockDoesNotOverlapTheNextHolder() {
		runPausedWaiter("one thread in B", 1);
	}

	@Test
	void pausedWaiterWithSeveralThreadsDoesNotOverlapTheNextHolder() {
		runPausedWaiter("three threads in B", 3);
	}

	@Test
	void controlPausedHolderPastItsFixedLeaseOverlapsTheNextHolder() {
		String run = String.valueOf(runs++);
		String key = "lock:paused:" + UUID.randomUUID();
		holderA.send("hold a" + run + " " + key + " 2000 500 0");
		long acquiredA = Long.parseLong(holderA.await("acquired a" + run, Duration.ofSeconds(5))[3]);
		holderA.pause();
		String[] acquiredC;
		try {
			waiterC.send("hold c" + run + " " + key + " 5000 1000 8000");
			acquiredC = waiterC.await("acquired c" + run, Duration.ofSeconds(8));
			Pause.millis(300);
		}
		finally {
			holderA.resume();
		}
		String[] releasedA = holderA.await("released a" + run, Duration.ofSeconds(5));
		HoldLog log = new HoldLog();
		log.add(new Hold("A", acquiredA, Long.parseLong(releasedA[2]), 0, false));
		String[] releasedC = waiterC.await("released c" + run, Duration.ofSeconds(5));
		log.add(new Hold("C", Long.parseLong(acquiredC[3]), Long.parseLong(releasedC[2]), 0, false));
		Figures.record("paused waiter control",
				"holder paused past its 2 s fixed lease: %d overlapping holds; " + "A's release said %s",
				log.overlaps(), releasedA[3]);
		assertThat(log.overlaps()).isEqualTo(1);
	}

	/**
	 * What the scenario records when B is stopped only after the release handed it the
	 * lock (as {@code kill -STOP} alone allowed under CPU load, the JVM running on for
	 * milliseconds): B is then a holder paused past its fixed lease, as in the control
	 * above, and its hold, begun before C's with a lower token, overlaps C's.
	 */
	@Test
	void controlWaiterStoppedOnlyAfterTheHandOverOverlapsTheNextHolder() {
		String run = String.valueOf(runs++);
		String key = "lock:paused:" + UUID.randomUUID();
		holderA.send("hold a" + run + " " + key + " 10000 -1 0");
		holderA.await("acquired a" + run, Duration.ofSeconds(5));
		// B holds until told to release, after it is continued, however slowly the test
		// stops it.
		waiterB.send("hold b" + run + " " + key + " 2000 -1 15000");
		waiterB.await("waiting " + key, Duration.ofSeconds(5));
		holderA.send("release a" + run);
		String[] acquiredB = waiterB.await("acquired b" + run, Duration.ofSeconds(5));
		waiterB.pause();
		String[] acquiredC;
		try {
			long resumeAt = System.nanoTime() + 4_000_000_000L;
			waiterC.send("hold c" + run + " " + key + " 5000 3000 15000");
			acquiredC = waiterC.await("acquired c" + run, Duration.ofSeconds(8));
			Pause.until(resumeAt);
		}
		finally {
			waiterB.resume();
		}
		waiterB.send("release b" + run);
		String[] releasedB = waiterB.await("released b" + run, Duration.ofSeconds(5));
		String[] releasedC = waiterC.await("released c" + run, Duration.ofSeconds(8));
		HoldLog log = new HoldLog();
		log.add(new Hold("B", Long.parseLong(acquiredB[3]), Long.parseLong(releasedB[2]), Long.parseLong(acquiredB[2]),
				false));
		log.add(new Hold("C", Long.parseLong(acquiredC[3]), Long.parseLong(releasedC[2]), Long.parseLong(acquiredC[2]),
				false));
		Figures.record("paused waiter control: stopped after the hand-over",
				"B token %s, C token %s; B began %d ms before C acquired; %d overlapping holds; B's release said %s",
				acquiredB[2], acquiredC[2], (Long.parseLong(acquiredC[3]) - Long.parseLong(acquiredB[3])) / 1_000_000,
				log.overlaps(), releasedB[3]);
		assertThat(log.overlaps()).isEqualTo(1);
		assertThat(Long.parseLong(acquiredB[2])).isLessThan(Long.parseLong(acquiredC[2]));
		assertThat(releasedB[3]).isEqualTo("leaseLost=true");
	}

	private void runPausedWaiter(String name, int threadsInB) {
		String run = String.valueOf(runs++);
		String key = "lock:paused:" + UUID.randomUUID();
		holderA.send("hold a" + run + " " + key + " 10000 -1 0");
		String[] acquiredA = holderA.await("acquired a" + run, Duration.ofSeconds(5));
		for (int i = 0; i < threadsInB; i++) {
			waiterB.send("hold b" + run + "-" + i + " " + key + " 2000 200 15000");
		}
		// B has attempted once and found the lock held (its threads beyond the first wait
		// within B).
		waiterB.await("waiting " + key, Duration.ofSeconds(5));
		for (int i = 1; i < threadsInB; i++) {
			waiterB.poll("waiting " + key, Duration.ofSeconds(2));
		}
		// Returns once every thread of B has stopped: B is a waiter, not a holder, when A
		// releases.
		Duration stopping = waiterB.pause();
		long resumeAt;
		long continued;
		String[] acquiredC;
		String[] releasedA;
		try {
			holderA.send("release a" + run);
			releasedA = holderA.await("released a" + run, Duration.ofSeconds(5));
			waiterC.send("hold c" + run + " " + key + " 5000 3000 15000");
			resumeAt = System.nanoTime() + 4_000_000_000L;
			acquiredC = waiterC.await("acquired c" + run, Duration.ofSeconds(8));
			Pause.until(resumeAt);
		}
		finally {
			continued = System.nanoTime();
			waiterB.resume();
		}
		HoldLog log = new HoldLog();
		log.add(new Hold("A", Long.parseLong(acquiredA[3]), Long.parseLong(releasedA[2]), Long.parseLong(acquiredA[2]),
				false));
		String[] releasedC = waiterC.await("released c" + run, Duration.ofSeconds(8));
		long startC = Long.parseLong(acquiredC[3]);
		long endC = Long.parseLong(releasedC[2]);
		log.add(new Hold("C", startC, endC, Long.parseLong(acquiredC[2]), false));
		List<String> outcomesB = new ArrayList<>();
		int beganWhileStopped = 0;
		for (int i = 0; i < threadsInB; i++) {
			String[] reply = waiterB.poll("acquired b" + run + "-" + i, Duration.ofSeconds(20));
			if (reply == null) {
				outcomesB.add("none");
				continue;
			}
			String[] released = waiterB.await("released b" + run + "-" + i, Duration.ofSeconds(5));
			long startB = Long.parseLong(reply[3]);
			log.add(new Hold("B", startB, Long.parseLong(released[2]), Long.parseLong(reply[2]), false));
			if (startB - continued < 0) {
				beganWhileStopped++;
			}
			// By the times the holders recorded (one clock for the JVMs of a host); B's
			// start is when its call returned, after it was continued.
			String began = (startB - startC < 0) ? "began before C acquired"
					: (startB - endC < 0) ? "began while C held the lock" : "began after C released";
			outcomesB.add("token " + reply[2] + " " + began + ", " + (startB - continued) / 1_000_000
					+ " ms after B was continued");
		}
		long nextStart = System.nanoTime();
		holderA.send("hold d" + run + " " + key + " 2000 50 5000");
		long waitedD = (Long.parseLong(holderA.await("acquired d" + run, Duration.ofSeconds(6))[3]) - nextStart)
				/ 1_000_000;
		holderA.await("released d" + run, Duration.ofSeconds(3));
		Figures.record("paused waiter: " + name,
				"B stopped %.1f ms after kill -STOP; C token %s; B: %s; %d overlapping holds (A, C and B), "
						+ "%d shared tokens; next acquirer after all released waited %d ms",
				stopping.toNanos() / 1e6, acquiredC[2], outcomesB, log.overlaps(), log.duplicateTokens(), waitedD);
		assertThat(beganWhileStopped)
			.as("holds of B that began before B was continued (B must be stopped, "
					+ "and A hold the lock, until then)")
			.isZero();
		assertThat(log.overlaps()).as("holds overlapping another").isZero();
		assertThat(log.duplicateTokens()).as("holds sharing a fencing token").isZero();
		assertThat(waitedD).as("ms the next acquirer waited for a free lock").isLessThan(500);
	}

}
