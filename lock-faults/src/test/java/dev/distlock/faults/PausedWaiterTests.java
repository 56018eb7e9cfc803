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
 * token with it, and must leave no place behind that strands the lock. The control pauses
 * a holder past its fixed lease and shows that the interval log does catch the overlap.
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

	private void runPausedWaiter(String name, int threadsInB) {
		String run = String.valueOf(runs++);
		String key = "lock:paused:" + UUID.randomUUID();
		holderA.send("hold a" + run + " " + key + " 10000 -1 0");
		holderA.await("acquired a" + run, Duration.ofSeconds(5));
		for (int i = 0; i < threadsInB; i++) {
			waiterB.send("hold b" + run + "-" + i + " " + key + " 2000 200 15000");
		}
		// B has attempted once and found the lock held (its threads beyond the first wait
		// within B).
		waiterB.await("waiting " + key, Duration.ofSeconds(5));
		for (int i = 1; i < threadsInB; i++) {
			waiterB.poll("waiting " + key, Duration.ofSeconds(2));
		}
		waiterB.pause();
		long resumeAt;
		String[] acquiredC;
		try {
			holderA.send("release a" + run);
			holderA.await("released a" + run, Duration.ofSeconds(5));
			waiterC.send("hold c" + run + " " + key + " 5000 3000 15000");
			resumeAt = System.nanoTime() + 4_000_000_000L;
			acquiredC = waiterC.await("acquired c" + run, Duration.ofSeconds(8));
			Pause.until(resumeAt);
		}
		finally {
			waiterB.resume();
		}
		HoldLog log = new HoldLog();
		String[] releasedC = waiterC.await("released c" + run, Duration.ofSeconds(8));
		log.add(new Hold("C", Long.parseLong(acquiredC[3]), Long.parseLong(releasedC[2]), Long.parseLong(acquiredC[2]),
				false));
		List<String> outcomesB = new ArrayList<>();
		for (int i = 0; i < threadsInB; i++) {
			String[] reply = waiterB.poll("acquired b" + run + "-" + i, Duration.ofSeconds(20));
			if (reply == null) {
				outcomesB.add("none");
				continue;
			}
			String[] released = waiterB.await("released b" + run + "-" + i, Duration.ofSeconds(5));
			log.add(new Hold("B", Long.parseLong(reply[3]), Long.parseLong(released[2]), Long.parseLong(reply[2]),
					false));
			outcomesB.add("token " + reply[2] + (Long.parseLong(reply[3]) < Long.parseLong(releasedC[2])
					? " acquired while C held the lock" : " after C released"));
		}
		long nextStart = System.nanoTime();
		holderA.send("hold d" + run + " " + key + " 2000 50 5000");
		long waitedD = (Long.parseLong(holderA.await("acquired d" + run, Duration.ofSeconds(6))[3]) - nextStart)
				/ 1_000_000;
		holderA.await("released d" + run, Duration.ofSeconds(3));
		Figures.record("paused waiter: " + name,
				"C token %s; B: %s; %d overlapping holds, %d shared tokens; "
						+ "next acquirer after all released waited %d ms",
				acquiredC[2], outcomesB, log.overlaps(), log.duplicateTokens(), waitedD);
		assertThat(log.overlaps()).as("holds overlapping another").isZero();
		assertThat(log.duplicateTokens()).as("holds sharing a fencing token").isZero();
		assertThat(waitedD).as("ms the next acquirer waited for a free lock").isLessThan(500);
	}

}
