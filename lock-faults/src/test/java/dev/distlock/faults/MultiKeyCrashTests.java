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

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, several keys: a caller of {@code lock([a, b])} killed ({@code SIGKILL})
 * between its keys, holding {@code a} and queued for {@code b}. {@code a} is free within
 * its renewed lease ({@code distlock.renewal.lease=3s} in its process) after the kill,
 * and the next waiter for {@code b} gets it within the claim window + 1 s (3 s) of its
 * holder's release. Callers locking {@code [a, b]} and {@code [b, a]} in two JVMs, with
 * single-key callers beside them, never deadlock (every call ends within its wait time,
 * none fails) and count exactly on each key. The controls: the blog lock, taking the keys
 * in the order given, deadlocks until wait times run out, and strands {@code a} for its
 * lease when its holder dies between the keys.
 */
class MultiKeyCrashTests {

	private static final long CRASHED_LEASE_MS = 3000;

	private static final long CLAIM_BOUND_MS = 3000;

	private static final long SLACK_MS = 300;

	private static RedisNode redis;

	private static RedisNode resource;

	private static List<String> crashingProperties;

	private static WorkerJvm workerA;

	private static WorkerJvm workerB;

	private static WorkerJvm workerC;

	private static int runs;

	@TempDir
	Path files;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		crashingProperties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s",
				"distlock.renewal.lease=" + CRASHED_LEASE_MS + "ms");
		workerA = WorkerJvm.start("A", properties);
		workerB = WorkerJvm.start("B", properties);
		workerC = WorkerJvm.start("C", properties);
	}

	@AfterAll
	static void stop() {
		workerC.close();
		workerB.close();
		workerA.close();
		resource.close();
		redis.close();
	}

	@Test
	void keysOfACallerKilledBetweenThemAreFreeWithinItsLeaseAndTheClaimWindow() {
		String run = String.valueOf(runs++);
		// One hash slot: the keys are locked in the order of their text, a first.
		String a = "lock:crash-between:{" + UUID.randomUUID() + "}:a";
		String b = a.replace("}:a", "}:b");
		workerA.send("hold h" + run + " " + b + " renew -1 0");
		workerA.await("acquired h" + run, Duration.ofSeconds(5));
		long killed;
		long released;
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x" + run + " " + a + "," + b + " renew 100 30000");
			crashing.await("waiting " + b, Duration.ofSeconds(5));
			workerC.send("hold c" + run + " " + b + " renew 100 30000");
			workerC.await("waiting " + b, Duration.ofSeconds(5));
			killed = crashing.kill();
			workerB.send("hold a" + run + " " + a + " renew 100 10000");
			// The crashed caller's place in b's queue is still valid at the release.
			Pause.until(killed + 1_500_000_000L);
			workerA.send("release h" + run);
			released = Long.parseLong(workerA.await("released h" + run, Duration.ofSeconds(5))[2]);
		}
		String[] gotA = workerB.poll("acquired a" + run, Duration.ofSeconds(10));
		String[] gotB = workerC.poll("acquired c" + run, Duration.ofSeconds(10));
		long aMs = (gotA != null) ? (Long.parseLong(gotA[3]) - killed) / 1_000_000 : -1;
		long bMs = (gotB != null) ? (Long.parseLong(gotB[3]) - released) / 1_000_000 : -1;
		Figures.record("several keys: crash between keys",
				"caller of [a, b] killed holding a (renewed %d ms lease) and queued for b: a free %s after the kill; "
						+ "b to the next waiter %s after its holder's release",
				CRASHED_LEASE_MS, (gotA != null) ? aMs + " ms" : "not within 10 s",
				(gotB != null) ? bMs + " ms" : "not within 10 s");
		assertThat(gotA).as("a acquired by another caller").isNotNull();
		assertThat(aMs).as("ms from the kill until a was acquired").isLessThanOrEqualTo(CRASHED_LEASE_MS + SLACK_MS);
		assertThat(gotB).as("b acquired by its next waiter").isNotNull();
		assertThat(bMs).as("ms from b's release until its next waiter got it")
			.isLessThanOrEqualTo(CLAIM_BOUND_MS + SLACK_MS);
		workerB.await("released a" + run, Duration.ofSeconds(3));
		workerC.await("released c" + run, Duration.ofSeconds(3));
	}

	@Test
	void callersLockingTheKeysInOppositeOrdersNeverDeadlockAndCountExactly() {
		Opposite run = contendInOppositeOrders("distlock");
		Figures.record("several keys: opposite orders",
				"[a, b] in B, [b, a] in C, a and b alone in A: a %d holds, %d overlapping, "
						+ "counter %d; b %d holds, %d overlapping, counter %d; failed calls %s",
				run.a().holds().size(), run.a().overlaps(), run.counterA(), run.b().holds().size(), run.b().overlaps(),
				run.counterB(), run.run().errorCounts());
		assertThat(run.a().overlaps()).as("overlapping holds of a").isZero();
		assertThat(run.b().overlaps()).as("overlapping holds of b").isZero();
		assertThat(run.counterA()).as("counter of a").isEqualTo(run.a().holds().size());
		assertThat(run.counterB()).as("counter of b").isEqualTo(run.b().holds().size());
		assertThat(run.run().errorCounts()).as("failed calls").isEmpty();
	}

	@Test
	void controlBlogLockInTheGivenOrderDeadlocks() {
		Opposite run = contendInOppositeOrders("blog");
		Figures.record("several keys: opposite orders, control",
				"blog lock in the order given: a %d holds, b %d holds; failed calls %s", run.a().holds().size(),
				run.b().holds().size(), run.run().errorCounts());
		assertThat(run.run().errorCounts()).containsKey("LockNotAcquiredException");
	}

	@Test
	void controlBlogLockStrandsTheFirstKeyOfACallerKilledBetweenKeys() {
		String run = String.valueOf(runs++);
		String a = "lock:crash-between-blog:{" + UUID.randomUUID() + "}:a";
		String b = a.replace("}:a", "}:b");
		workerA.send("hold h" + run + " " + b + " renew -1 0 blog");
		workerA.await("acquired h" + run, Duration.ofSeconds(5));
		long killed;
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x" + run + " " + a + "," + b + " renew 100 30000 blog");
			// The blog lock does not say when it waits: a is taken at once, then b spins.
			Pause.millis(300);
			killed = crashing.kill();
		}
		workerB.send("hold a" + run + " " + a + " renew 100 5000 blog");
		String[] outcome = workerB.await("error a" + run, Duration.ofSeconds(10));
		workerA.send("release h" + run);
		Figures.record("several keys: crash between keys, control",
				"blog lock (30 s lease), caller killed holding a and spinning on b: another caller got %s for a "
						+ "after %s ms (%d ms after the kill)",
				outcome[2], outcome[3], (System.nanoTime() - killed) / 1_000_000);
		assertThat(outcome[2]).isEqualTo("LockNotAcquiredException");
	}

	private Opposite contendInOppositeOrders(String lock) {
		String a = "lock:opposite:{" + UUID.randomUUID() + "}:a";
		String b = a.replace("}:a", "}:b");
		Path forward = this.files.resolve("forward.txt");
		Path backward = this.files.resolve("backward.txt");
		Path aloneA = this.files.resolve("alone-a.txt");
		Path aloneB = this.files.resolve("alone-b.txt");
		// One thread per order and JVM: threads of one JVM pass a key among themselves
		// (distlock.waiting.max-local-passes), which can keep callers of other JVMs
		// waiting beyond a 2 s wait time without any deadlock.
		workerB.send(ContendedRun.command("f", lock, a + "," + b, 1, 3000, 20, resource.port(), forward));
		workerC.send(ContendedRun.command("r", lock, b + "," + a, 1, 3000, 20, resource.port(), backward));
		workerA.send(ContendedRun.command("sa", lock, a, 1, 3000, 20, resource.port(), aloneA));
		workerA.send(ContendedRun.command("sb", lock, b, 1, 3000, 20, resource.port(), aloneB));
		workerB.await("contended f", Duration.ofSeconds(20));
		workerC.await("contended r", Duration.ofSeconds(20));
		workerA.await("contended sa", Duration.ofSeconds(20));
		workerA.await("contended sb", Duration.ofSeconds(20));
		ContendedRun run = ContendedRun.read(Map.of("B", forward, "C", backward, "A-a", aloneA, "A-b", aloneB));
		return new Opposite(run, run.log().forKey(a), run.log().forKey(b), counter(a), counter(b));
	}

	private static long counter(String key) {
		Long value = Resp.number(resource.port(), "GET", "counter:" + key);
		return (value != null) ? value : 0;
	}

	private record Opposite(ContendedRun run, HoldLog a, HoldLog b, long counterA, long counterB) {

	}

}
