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
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, read-write locks: a reader killed ({@code SIGKILL}). Holding, its renewed
 * lease ({@code distlock.renewal.lease=3s} in its process) keeps a writer out at most
 * that lease after the kill, while other readers get in at once. Queued, and handed the
 * lock by a writer's release together with a live reader, it keeps the writer behind it
 * out at most the claim window + 1 s (3 s) after the release, and the live reader gets in
 * at once. The control kills a reader of the naive read-write lock: the writer never gets
 * in.
 */
class ReadWriteCrashedReaderTests {

	private static final long CRASHED_LEASE_MS = 3000;

	private static final long CLAIM_BOUND_MS = 3000;

	private static final long SLACK_MS = 300;

	private static RedisNode redis;

	private static List<String> crashingProperties;

	private static WorkerJvm readerA;

	private static WorkerJvm writerB;

	private static int runs;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		crashingProperties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s",
				"distlock.renewal.lease=" + CRASHED_LEASE_MS + "ms");
		readerA = WorkerJvm.start("A", properties);
		writerB = WorkerJvm.start("B", properties);
	}

	@AfterAll
	static void stop() {
		writerB.close();
		readerA.close();
		redis.close();
	}

	@Test
	void writerGetsInWithinTheCrashedReadersLeaseAndOtherReadersAtOnce() {
		String run = String.valueOf(runs++);
		String key = "lock:crashed-reader:" + UUID.randomUUID();
		long killed;
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x" + run + " " + key + " renew -1 0 read");
			crashing.await("acquired x" + run, Duration.ofSeconds(5));
			readerA.send("hold r" + run + " " + key + " renew -1 0 read");
			readerA.await("acquired r" + run, Duration.ofSeconds(5));
			killed = crashing.kill();
		}
		readerA.send("hold s" + run + " " + key + " renew 100 0 read");
		String[] lateReader = readerA.await("acquired s" + run, Duration.ofSeconds(5));
		long lateReaderMs = (Long.parseLong(lateReader[3]) - Long.parseLong(lateReader[4])) / 1_000_000;
		writerB.send("hold w" + run + " " + key + " renew 100 10000 write");
		writerB.await("waiting " + key, Duration.ofSeconds(5));
		readerA.send("release r" + run);
		readerA.await("released r" + run, Duration.ofSeconds(5));
		String[] writer = writerB.poll("acquired w" + run, Duration.ofSeconds(10));
		long writerMs = (writer != null) ? (Long.parseLong(writer[3]) - killed) / 1_000_000 : -1;
		Figures.record("read-write: crashed reader holding",
				"reader with a %d ms renewed lease killed while holding: another reader got in %d ms after asking "
						+ "(zero wait); the writer waiting got in %s after the kill",
				CRASHED_LEASE_MS, lateReaderMs, (writer != null) ? writerMs + " ms" : "not within 10 s");
		assertThat(writer).as("writer acquired").isNotNull();
		assertThat(writerMs).as("ms from the kill to the writer's grant")
			.isLessThanOrEqualTo(CRASHED_LEASE_MS + SLACK_MS);
		writerB.await("released w" + run, Duration.ofSeconds(3));
	}

	@Test
	void writerBehindACrashedQueuedReaderGetsInWithinTheClaimWindow() {
		String run = String.valueOf(runs++);
		String key = "lock:crashed-queued-reader:" + UUID.randomUUID();
		writerB.send("hold v" + run + " " + key + " renew -1 0 write");
		writerB.await("acquired v" + run, Duration.ofSeconds(5));
		long released;
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x" + run + " " + key + " renew 100 30000 read");
			crashing.await("waiting " + key, Duration.ofSeconds(5));
			readerA.send("hold r" + run + " " + key + " renew 100 30000 read");
			readerA.await("waiting " + key, Duration.ofSeconds(5));
			writerB.send("hold w" + run + " " + key + " renew 100 30000 write");
			writerB.await("waiting " + key, Duration.ofSeconds(5));
			long killed = crashing.kill();
			// The crashed reader's place in the queue is still valid at the release.
			Pause.until(killed + 1_500_000_000L);
			writerB.send("release v" + run);
			released = Long.parseLong(writerB.await("released v" + run, Duration.ofSeconds(5))[2]);
		}
		String[] reader = readerA.await("acquired r" + run, Duration.ofSeconds(5));
		long readerMs = (Long.parseLong(reader[3]) - released) / 1_000_000;
		String[] writer = writerB.poll("acquired w" + run, Duration.ofSeconds(10));
		long writerMs = (writer != null) ? (Long.parseLong(writer[3]) - released) / 1_000_000 : -1;
		Figures.record("read-write: crashed queued reader",
				"reader killed in the queue, handed the lock with a live reader by a writer's release: the live "
						+ "reader got in %d ms after the release, the writer behind them %s",
				readerMs, (writer != null) ? writerMs + " ms after it" : "not within 10 s");
		assertThat(readerMs).as("ms from the release to the live reader's grant").isLessThan(SLACK_MS);
		assertThat(writer).as("writer acquired").isNotNull();
		assertThat(writerMs).as("ms from the release to the writer's grant")
			.isLessThanOrEqualTo(CLAIM_BOUND_MS + SLACK_MS);
		writerB.await("released w" + run, Duration.ofSeconds(3));
	}

	@Test
	void controlNaiveReadWriteLockStrandsTheWriterBehindACrashedReader() {
		String run = String.valueOf(runs++);
		String key = "lock:crashed-naive-reader:" + UUID.randomUUID();
		long killed;
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x" + run + " " + key + " renew -1 0 naive-read");
			crashing.await("acquired x" + run, Duration.ofSeconds(5));
			killed = crashing.kill();
		}
		writerB.send("hold w" + run + " " + key + " renew 100 5000 naive-write");
		String[] outcome = writerB.await("error w" + run, Duration.ofSeconds(10));
		Figures.record("read-write: crashed reader control",
				"naive read-write lock, reader killed while holding: the writer got %s after %s ms (%d ms after "
						+ "the kill)",
				outcome[2], outcome[3], (System.nanoTime() - killed) / 1_000_000);
		assertThat(outcome[2]).isEqualTo("LockNotAcquiredException");
	}

}
