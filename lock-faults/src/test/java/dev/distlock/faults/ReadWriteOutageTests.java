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
 * Issue 23, read-write locks: Redis killed and restarted empty while a writer waits
 * behind readers. The writer's wait, ending during the outage, ends with
 * {@code LockUnavailableException}, not "not acquired", within its wait time + one
 * command timeout; after the restart the readers are told their leases are lost, nothing
 * left in the queue keeps a new writer out, and tokens exceed every earlier one. Readers
 * and writers contending through the same fault never have a writer overlap another
 * holder, and every call that ends while Redis is down ends with
 * {@code LockUnavailableException}. The control contends with the naive read-write lock,
 * whose counters the restart wipes: a writer gets in beside a reader.
 */
class ReadWriteOutageTests {

	private static final long WAIT_MS = 3000;

	private static final long COMMAND_TIMEOUT_MS = 2000;

	private static final long SLACK_MS = 300;

	private static RedisNode redis;

	private static RedisNode resource;

	private static WorkerJvm workerA;

	private static WorkerJvm workerB;

	private static WorkerJvm workerC;

	@TempDir
	Path files;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
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
	void queuedWriterIsToldOfTheOutageAndNothingIsStrandedAfterAnEmptyRestart() {
		String key = "lock:rw-outage:" + UUID.randomUUID();
		workerA.send("hold r1 " + key + " renew -1 0 read");
		String[] reader1 = workerA.await("acquired r1", Duration.ofSeconds(5));
		workerB.send("hold r2 " + key + " renew -1 0 read");
		String[] reader2 = workerB.await("acquired r2", Duration.ofSeconds(5));
		long writerCalled = System.nanoTime();
		workerC.send("hold w1 " + key + " renew 100 " + WAIT_MS + " write");
		workerC.await("waiting " + key, Duration.ofSeconds(5));
		// Killed shortly before the writer's wait time ends, so that the wait ends
		// during the outage.
		Pause.until(writerCalled + (WAIT_MS - 300) * 1_000_000);
		long killed = redis.kill();
		String[] writer = workerC.await("error w1", Duration.ofMillis(WAIT_MS + COMMAND_TIMEOUT_MS + 3000));
		long writerEndedMs = (System.nanoTime() - writerCalled) / 1_000_000;
		Pause.until(killed + 2_000_000_000L);
		long restarted = redis.restart();
		workerC.send("hold w2 " + key + " renew 100 5000 write");
		String[] nextWriter = workerC.poll("acquired w2", Duration.ofSeconds(8));
		String[] lost1 = workerA.poll("lost r1", Duration.ofSeconds(5));
		String[] lost2 = workerB.poll("lost r2", Duration.ofSeconds(5));
		workerA.send("release r1");
		String[] released1 = workerA.await("released r1", Duration.ofSeconds(5));
		workerB.send("release r2");
		String[] released2 = workerB.await("released r2", Duration.ofSeconds(5));
		long nextWriterMs = (nextWriter != null) ? (Long.parseLong(nextWriter[3]) - restarted) / 1_000_000 : -1;
		long lastToldMs = Math.max(toldAfter(lost1, restarted), toldAfter(lost2, restarted));
		long nextWriterToken = (nextWriter != null) ? Long.parseLong(nextWriter[2]) : 0;
		Figures.record("read-write: queued writer during an outage",
				"writer queued behind 2 readers, Redis killed %d ms before its wait time ended, restarted empty "
						+ "2 s later: writer got %s after %d ms (bound %d); readers told lost %d and %d ms after "
						+ "the restart, releases %s/%s; next writer got in %s after the restart (the last reader was "
						+ "told %+d ms after that), token above readers' %s",
				300, writer[2], writerEndedMs, WAIT_MS + COMMAND_TIMEOUT_MS, toldAfter(lost1, restarted),
				toldAfter(lost2, restarted), released1[4], released2[4],
				(nextWriter != null) ? nextWriterMs + " ms" : "not within 8 s", lastToldMs - nextWriterMs,
				nextWriterToken > Math.max(Long.parseLong(reader1[2]), Long.parseLong(reader2[2])));
		assertThat(writer[2]).as("the waiting writer's outcome").isEqualTo("LockUnavailableException");
		assertThat(writerEndedMs).as("ms the waiting writer's call took")
			.isLessThanOrEqualTo(WAIT_MS + COMMAND_TIMEOUT_MS + SLACK_MS);
		assertThat(lost1).as("reader 1 told its lease is lost").isNotNull();
		assertThat(lost2).as("reader 2 told its lease is lost").isNotNull();
		assertThat(lastToldMs).as("ms after the restart until both readers knew").isLessThan(COMMAND_TIMEOUT_MS);
		assertThat(nextWriter).as("next writer acquired").isNotNull();
		assertThat(nextWriterMs).as("ms after the restart until the next writer got in").isLessThan(2000);
		assertThat(nextWriterToken).as("next writer's token")
			.isGreaterThan(Math.max(Long.parseLong(reader1[2]), Long.parseLong(reader2[2])));
		workerC.await("released w2", Duration.ofSeconds(3));
	}

	@Test
	void noWriterOverlapsAnotherHolderThroughAnEmptyRestart() {
		Restart restart = new Restart();
		ContendedRun run = contendThroughRestart("read", "write", 150, 100, 8000, restart);
		Map<String, Integer> errors = run.errorsBetween(restart.killed, restart.restarted);
		long firstWriteMs = run.firstHoldAfterMs(restart.restarted, true);
		Figures.record("read-write: contention through an empty restart",
				"%d holds (%d writers), %d conflicting pairs; %d tokens after the restart not above every token "
						+ "before; calls ending during the outage: %s; first writer %d ms after the restart",
				run.log().holds().size(), run.log().holds().stream().filter(Hold::exclusive).count(),
				run.log().exclusiveOverlaps(), run.log().tokensAfterNotAboveBefore(restart.restarted), errors,
				firstWriteMs);
		assertThat(run.log().exclusiveOverlaps()).as("writers overlapping another holder").isZero();
		assertThat(run.log().tokensAfterNotAboveBefore(restart.restarted)).as("tokens going back").isZero();
		assertThat(errors).as("calls ending during the outage")
			.containsKey("LockUnavailableException")
			.doesNotContainKey("LockNotAcquiredException");
		assertThat(firstWriteMs).as("ms after the restart until a writer got in").isBetween(0L, 2000L);
	}

	@Test
	void controlNaiveReadWriteLockLetsAWriterInBesideAReaderAfterAnEmptyRestart() {
		// Readers' bodies span the outage: the restart wipes their count under them.
		ContendedRun run = contendThroughRestart("naive-read", "naive-write", 5000, 100, 6000, new Restart());
		Figures.record("read-write: contention through an empty restart, control",
				"naive read-write lock: %d holds, %d conflicting pairs", run.log().holds().size(),
				run.log().exclusiveOverlaps());
		assertThat(run.log().exclusiveOverlaps()).isPositive();
	}

	private ContendedRun contendThroughRestart(String readLock, String writeLock, long readBodyMs, long writeBodyMs,
			long durationMs, Restart restart) {
		String key = "lock:rw-restart:" + UUID.randomUUID();
		Path readsA = this.files.resolve("reads-a.txt");
		Path writesB = this.files.resolve("writes-b.txt");
		Path readsC = this.files.resolve("reads-c.txt");
		long start = System.nanoTime();
		workerA.send(ContendedRun.command("ra", readLock, key, 2, durationMs, readBodyMs, resource.port(), readsA));
		// The readers hold first, the writers queue behind them.
		Pause.millis(300);
		workerB.send(
				ContendedRun.command("wb", writeLock, key, 2, durationMs - 300, writeBodyMs, resource.port(), writesB));
		workerC
			.send(ContendedRun.command("rc", readLock, key, 1, durationMs - 300, readBodyMs, resource.port(), readsC));
		Pause.until(start + 2_000_000_000L);
		restart.killed = redis.kill();
		// Longer than a command timeout, so that calls end during the outage.
		Pause.millis(COMMAND_TIMEOUT_MS + 500);
		restart.restarted = redis.restart();
		for (WorkerJvm worker : List.of(workerA, workerB, workerC)) {
			worker.await("contended", Duration.ofMillis(durationMs + 15_000));
		}
		return ContendedRun.read(Map.of("A", readsA, "B", writesB, "C", readsC));
	}

	private static long toldAfter(String[] lost, long restarted) {
		return (lost != null) ? (Long.parseLong(lost[2]) - restarted) / 1_000_000 : -1;
	}

	/** When Redis was killed and restarted, by {@link System#nanoTime()}. */
	private static final class Restart {

		private long killed;

		private long restarted;

	}

}
