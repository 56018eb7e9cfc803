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
 * Issue 23, read-write locks: a writer stopped ({@code SIGSTOP}) past its fixed lease. A
 * reader, then another writer, may get in only once that lease has ended; when the paused
 * writer continues, its write is refused by the fenced resource (the reader raised the
 * fence with a later token) and its release reports the lease lost. The control runs the
 * naive read-write lock through the same pause: its readers have no token, so the paused
 * writer's late write lands while the next writer holds the lock, and nobody is told.
 * Also a writer stopped while queued, when a release hands it the lock: the reader after
 * it gets in once the claim window lapses, and the writer, continued, never holds beside
 * it nor shares its token, nor leaves the lock stranded.
 */
class ReadWritePausedWriterTests {

	private static final long LEASE_MS = 2000;

	private static RedisNode redis;

	private static RedisNode resource;

	private static WorkerJvm writerA;

	private static WorkerJvm othersB;

	private static int runs;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		writerA = WorkerJvm.start("A", properties);
		othersB = WorkerJvm.start("B", properties);
	}

	@AfterAll
	static void stop() {
		othersB.close();
		writerA.close();
		resource.close();
		redis.close();
	}

	@Test
	void othersGetInOnlyAfterThePausedWritersLeaseAndItsLateWriteIsRefused() {
		PausedWriter run = pauseWriter("write", "read");
		Figures.record("read-write: paused writer",
				"writer paused past its %d ms fixed lease: reader got in %d ms and next writer %d ms after the "
						+ "writer asked; tokens writer %d < reader %d < next writer %d: %s; paused writer's late "
						+ "write accepted=%s, its release: leaseLost=%s %s, told lost %s; %d conflicting pairs "
						+ "(the paused writer's own interval)",
				LEASE_MS, run.readerAfterMs(), run.nextWriterAfterMs(), run.writerToken(), run.readerToken(),
				run.nextWriterToken(), run.tokensIncrease(), run.lateWriteAccepted(), run.releaseLeaseLost(),
				run.releaseOutcome(), run.toldLost(), run.conflicts());
		// Redis keeps scores in whole ms: a lease may end up to 1 ms before the exact
		// grant time + lease, and Redis's clock may run slightly apart from nanoTime.
		assertThat(run.readerAfterMs()).as("ms from the writer's call to the reader's grant")
			.isGreaterThanOrEqualTo(LEASE_MS - 5);
		assertThat(run.nextWriterAfterMs()).as("ms from the writer's call to the next writer's grant")
			.isGreaterThanOrEqualTo(LEASE_MS - 5);
		assertThat(run.tokensIncrease()).as("tokens writer < reader < next writer").isTrue();
		assertThat(run.lateWriteAccepted()).as("paused writer's late write accepted").isFalse();
		assertThat(run.nextWriterWriteAccepted()).as("next writer's write accepted").isTrue();
		assertThat(run.releaseLeaseLost()).as("paused writer's release saw its lease lost").isTrue();
		assertThat(run.releaseOutcome()).isEqualTo("LockLeaseLostException");
		assertThat(run.toldLost()).as("paused writer told of the lost lease").isTrue();
	}

	@Test
	void controlNaiveReadWriteLockLetsThePausedWritersLateWriteLand() {
		PausedWriter run = pauseWriter("naive-write", "naive-read");
		Figures.record("read-write: paused writer control",
				"naive read-write lock: reader got in %d ms after the writer asked, next writer %d ms; paused "
						+ "writer's late write accepted=%s while the next writer held the lock; its release: %s, "
						+ "leaseLost=%s",
				run.readerAfterMs(), run.nextWriterAfterMs(), run.lateWriteAccepted(), run.releaseOutcome(),
				run.releaseLeaseLost());
		assertThat(run.lateWriteAccepted()).isTrue();
		assertThat(run.releaseLeaseLost()).isFalse();
	}

	@Test
	void pausedQueuedWriterHandedTheLockDoesNotOverlapTheReaderAfterIt() {
		String run = String.valueOf(runs++);
		String key = "lock:paused-queued-writer:" + UUID.randomUUID();
		writerA.send("hold r" + run + " " + key + " renew -1 0 read");
		writerA.await("acquired r" + run, Duration.ofSeconds(5));
		othersB.send("hold w" + run + " " + key + " 2000 200 15000 write");
		othersB.await("waiting " + key, Duration.ofSeconds(5));
		othersB.pause();
		String[] reader;
		try {
			// The release hands the lock to the stopped writer, for its claim window.
			writerA.send("release r" + run);
			writerA.await("released r" + run, Duration.ofSeconds(5));
			long resumeAt = System.nanoTime() + 4_000_000_000L;
			writerA.send("hold s" + run + " " + key + " renew 3000 15000 read");
			reader = writerA.await("acquired s" + run, Duration.ofSeconds(8));
			Pause.until(resumeAt);
		}
		finally {
			othersB.resume();
		}
		String[] readerReleased = writerA.await("released s" + run, Duration.ofSeconds(8));
		String[] writer = othersB.poll("acquired w" + run, Duration.ofSeconds(20));
		HoldLog log = new HoldLog().add(new Hold("A", Long.parseLong(reader[3]), Long.parseLong(readerReleased[2]),
				Long.parseLong(reader[2]), true, false, key));
		if (writer != null) {
			String[] writerReleased = othersB.await("released w" + run, Duration.ofSeconds(5));
			log.add(new Hold("B", Long.parseLong(writer[3]), Long.parseLong(writerReleased[2]),
					Long.parseLong(writer[2]), true, true, key));
		}
		long nextStart = System.nanoTime();
		writerA.send("hold n" + run + " " + key + " 2000 50 5000 write");
		long waitedNext = (Long.parseLong(writerA.await("acquired n" + run, Duration.ofSeconds(6))[3]) - nextStart)
				/ 1_000_000;
		writerA.await("released n" + run, Duration.ofSeconds(3));
		Figures.record("read-write: paused queued writer",
				"writer stopped while queued, handed the lock by a reader's release, continued after 4 s: a reader "
						+ "asking after the release got in %d ms later (the claim window); writer %s; %d conflicting pairs, %d shared "
						+ "tokens; next acquirer waited %d ms",
				(Long.parseLong(reader[3]) - Long.parseLong(reader[4])) / 1_000_000,
				(writer == null) ? "never acquired"
						: "acquired with token " + writer[2]
								+ ((Long.parseLong(writer[3]) < Long.parseLong(readerReleased[2]))
										? " while the reader held" : " after the reader released"),
				log.exclusiveOverlaps(), log.duplicateTokens(), waitedNext);
		assertThat(log.exclusiveOverlaps()).as("writer overlapping the reader").isZero();
		assertThat(log.duplicateTokens()).as("holds sharing a token").isZero();
		assertThat(waitedNext).as("ms the next acquirer waited for a free lock").isLessThan(500);
	}

	private PausedWriter pauseWriter(String writeLock, String readLock) {
		String run = String.valueOf(runs++);
		String key = "lock:paused-writer:" + UUID.randomUUID();
		writerA.send("hold w" + run + " " + key + " " + LEASE_MS + " -1 0 " + writeLock);
		String[] writer = writerA.await("acquired w" + run, Duration.ofSeconds(5));
		long writerCalled = Long.parseLong(writer[4]);
		writerA.pause();
		String[] reader;
		String[] nextWriter;
		String[] readerReleased;
		try {
			othersB.send("hold r" + run + " " + key + " 5000 -1 8000 " + readLock);
			reader = othersB.await("acquired r" + run, Duration.ofSeconds(8));
			othersB.send("read r" + run + " " + resource.port());
			othersB.await("read r" + run, Duration.ofSeconds(5));
			othersB.send("hold v" + run + " " + key + " 5000 -1 8000 " + writeLock);
			othersB.send("release r" + run);
			readerReleased = othersB.await("released r" + run, Duration.ofSeconds(5));
			nextWriter = othersB.await("acquired v" + run, Duration.ofSeconds(8));
		}
		finally {
			writerA.resume();
		}
		writerA.send("write w" + run + " " + resource.port());
		boolean lateWrite = Boolean.parseBoolean(writerA.await("written w" + run, Duration.ofSeconds(5))[2]);
		writerA.send("release w" + run);
		String[] writerReleased = writerA.await("released w" + run, Duration.ofSeconds(5));
		boolean toldLost = writerA.poll("lost w" + run, Duration.ofMillis(200)) != null;
		othersB.send("write v" + run + " " + resource.port());
		boolean nextWrite = Boolean.parseBoolean(othersB.await("written v" + run, Duration.ofSeconds(5))[2]);
		othersB.send("release v" + run);
		String[] nextReleased = othersB.await("released v" + run, Duration.ofSeconds(5));
		HoldLog log = new HoldLog()
			.add(new Hold("A", Long.parseLong(writer[3]), Long.parseLong(writerReleased[2]), Long.parseLong(writer[2]),
					lateWrite, true, key))
			.add(new Hold("B", Long.parseLong(reader[3]), Long.parseLong(readerReleased[2]), Long.parseLong(reader[2]),
					true, false, key))
			.add(new Hold("B", Long.parseLong(nextWriter[3]), Long.parseLong(nextReleased[2]),
					Long.parseLong(nextWriter[2]), nextWrite, true, key));
		return new PausedWriter((Long.parseLong(reader[3]) - writerCalled) / 1_000_000,
				(Long.parseLong(nextWriter[3]) - writerCalled) / 1_000_000, Long.parseLong(writer[2]),
				Long.parseLong(reader[2]), Long.parseLong(nextWriter[2]), lateWrite, nextWrite,
				writerReleased[3].equals("leaseLost=true"), writerReleased[4], toldLost, log.exclusiveOverlaps());
	}

	private record PausedWriter(long readerAfterMs, long nextWriterAfterMs, long writerToken, long readerToken,
			long nextWriterToken, boolean lateWriteAccepted, boolean nextWriterWriteAccepted, boolean releaseLeaseLost,
			String releaseOutcome, boolean toldLost, int conflicts) {

		boolean tokensIncrease() {
			return this.writerToken < this.readerToken && this.readerToken < this.nextWriterToken;
		}

	}

}
