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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Read-write locks on real Redis, between two clients: readers share, a writer excludes
 * everyone, a queued writer is served before readers that came after it, a reader's lease
 * is its own, fencing tokens of writers exceed every earlier grant, and the re-entry
 * rules of one thread.
 */
class ReadWriteLockTests {

	private static final LockOptions READ = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.READ);

	private static final LockOptions WRITE = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.WRITE);

	@RegisterExtension
	final TwoLockClients clients = new TwoLockClients();

	@Test
	void readersOfTwoClientsHoldTogether() {
		String key = TestRedis.uniqueKey("rw-readers");
		try (LockHandle one = this.clients.first().client.lock(key, READ.withWaitTime(Duration.ZERO));
				LockHandle two = this.clients.second().client.tryLock(key, READ.withWaitTime(Duration.ZERO))
					.orElseThrow()) {
			assertThat(this.clients.first().redis.opsForZSet().zCard(key)).as("readers holding").isEqualTo(2);
			assertThat(this.clients.first().redis.opsForZSet().range(key, 0, -1))
				.allMatch((member) -> member.startsWith("r."));
			assertThat(CompletableFuture
				.supplyAsync(() -> this.clients.second().client.tryLock(key, WRITE.withWaitTime(Duration.ZERO)))
				.join()).as("writer of another thread").isEmpty();
		}
		assertThat(this.clients.first().redis.hasKey(key)).as("gone after the last reader").isFalse();
	}

	@Test
	void writersExcludeReadersAndEachOtherAndCountExactly() throws Exception {
		String key = TestRedis.uniqueKey("rw-counter");
		HoldLog writes = new HoldLog();
		ConcurrentLinkedQueue<long[]> writeIntervals = new ConcurrentLinkedQueue<>();
		ConcurrentLinkedQueue<long[]> reads = new ConcurrentLinkedQueue<>();
		int[] counter = new int[1];
		AtomicBoolean writing = new AtomicBoolean();
		AtomicInteger readsSeeingAWrite = new AtomicInteger();
		LockFixture[] clients = { this.clients.first(), this.clients.second() };
		int writers = 4;
		int increments = 15;
		ConcurrentRunner.run(8, increments, (thread) -> {
			RedisLockClient client = clients[thread % 2].client;
			if (thread < writers) {
				try (LockHandle handle = client.lock(key, WRITE)) {
					long start = System.nanoTime();
					writing.set(true);
					int read = counter[0];
					Thread.yield();
					counter[0] = read + 1;
					writing.set(false);
					long end = System.nanoTime();
					writes.record(start, end);
					writeIntervals.add(new long[] { start, end });
				}
			}
			else {
				try (LockHandle handle = client.lock(key, READ)) {
					long start = System.nanoTime();
					if (writing.get()) {
						readsSeeingAWrite.incrementAndGet();
					}
					Thread.yield();
					reads.add(new long[] { start, System.nanoTime() });
				}
			}
		});
		assertThat(counter[0]).isEqualTo(writers * increments);
		writes.assertSerial(writers * increments);
		assertThat(readsSeeingAWrite).hasValue(0);
		assertThat(reads).hasSize(4 * increments);
		assertThat(overlaps(reads, writeIntervals)).as("reads that overlapped a write").isZero();
	}

	/** Counts the pairs of a read and a write whose intervals overlap. */
	private static long overlaps(ConcurrentLinkedQueue<long[]> reads, ConcurrentLinkedQueue<long[]> writes) {
		long overlaps = 0;
		for (long[] read : reads) {
			for (long[] write : writes) {
				if (read[0] < write[1] && write[0] < read[1]) {
					overlaps++;
				}
			}
		}
		return overlaps;
	}

	@Test
	void queuedWriterIsServedBeforeReadersThatCameAfterIt() throws Exception {
		String key = TestRedis.uniqueKey("rw-fair");
		List<String> order = new CopyOnWriteArrayList<>();
		LockHandle reader = this.clients.first().client.lock(key, READ);
		// Control: with nobody queued, another reader gets in at once.
		this.clients.second().client.tryLock(key, READ.withWaitTime(Duration.ZERO)).orElseThrow().release();
		CountDownLatch writerMayRelease = new CountDownLatch(1);
		CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
			try (LockHandle handle = this.clients.second().client.lock(key, WRITE)) {
				order.add("writer");
				awaitLatch(writerMayRelease);
			}
		});
		await().atMost(Duration.ofSeconds(5)).until(() -> queueLength(key) == 1);
		assertThat(this.clients.second().client.tryLock(key, READ.withWaitTime(Duration.ZERO)))
			.as("a reader that came after the queued writer")
			.isEmpty();
		List<CompletableFuture<Void>> lateReaders = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			LockFixture client = (i % 2 == 0) ? this.clients.first() : this.clients.second();
			lateReaders.add(CompletableFuture.runAsync(() -> {
				try (LockHandle handle = client.client.lock(key, READ)) {
					order.add("reader");
				}
			}));
			int queued = i + 2;
			await().atMost(Duration.ofSeconds(5)).until(() -> queueLength(key) == queued);
		}
		assertThat(order).isEmpty();
		reader.release();
		await().atMost(Duration.ofSeconds(5)).until(() -> order.contains("writer"));
		assertThat(order).containsExactly("writer");
		writerMayRelease.countDown();
		writer.get(5, TimeUnit.SECONDS);
		CompletableFuture.allOf(lateReaders.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
		assertThat(order).containsExactly("writer", "reader", "reader", "reader");
	}

	@Test
	void crashedReaderHoldsOnlyUntilItsLeaseEnds() throws Exception {
		String key = TestRedis.uniqueKey("rw-crash");
		LockFixture crashing = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1));
		LockHandle reader = crashing.client.lock(key, READ);
		assertThat(this.clients.second().client.tryLock(key, WRITE.withWaitTime(Duration.ZERO))).isEmpty();
		// The process dies: no release, no more renewals.
		crashing.close();
		try (LockHandle writer = this.clients.second().client.lock(key, WRITE.withWaitTime(Duration.ofSeconds(5)))) {
			assertThat(writer.fencingToken()).isGreaterThan(reader.fencingToken());
		}
	}

	@Test
	void writersFencingTokenExceedsEveryEarlierGrant() {
		String key = TestRedis.uniqueKey("rw-fence");
		long highest;
		try (LockHandle one = this.clients.first().client.lock(key, READ);
				LockHandle two = this.clients.second().client.lock(key, READ)) {
			assertThat(two.fencingToken()).isGreaterThan(one.fencingToken());
			highest = two.fencingToken();
		}
		try (LockHandle writer = this.clients.first().client.lock(key, WRITE)) {
			assertThat(writer.fencingToken()).isGreaterThan(highest);
			highest = writer.fencingToken();
		}
		try (LockHandle reader = this.clients.second().client.lock(key, READ)) {
			assertThat(reader.fencingToken()).isGreaterThan(highest);
			highest = reader.fencingToken();
		}
		try (LockHandle writer = this.clients.second().client.lock(key, WRITE)) {
			assertThat(writer.fencingToken()).isGreaterThan(highest);
		}
	}

	@Test
	void readInsideWriteReentersTheWriteHold() {
		String key = TestRedis.uniqueKey("rw-reenter");
		try (LockHandle writer = this.clients.first().client.lock(key, WRITE)) {
			try (LockHandle reader = this.clients.first().client.lock(key, READ)) {
				assertThat(reader.fencingToken()).isEqualTo(writer.fencingToken());
				assertThat(this.clients.first().redis.opsForZSet().zCard(key)).isEqualTo(1);
			}
			try (LockHandle reader = this.clients.first().client.lock(key, READ)) {
				try (LockHandle nested = this.clients.first().client.lock(key, READ)) {
					assertThat(nested.fencingToken()).isEqualTo(writer.fencingToken());
				}
			}
			assertThat(this.clients.second().client.tryLock(key, READ.withWaitTime(Duration.ZERO))).as("still written")
				.isEmpty();
		}
	}

	@Test
	void writeInsideReadThrowsWithoutARoundTrip() {
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(30))) {
			String key = TestRedis.uniqueKey("rw-upgrade");
			try (LockHandle reader = fixture.client.lock(key, READ)) {
				long before = scriptCalls(fixture);
				assertThatExceptionOfType(IllegalLockUpgradeException.class)
					.isThrownBy(() -> fixture.client.lock(key, WRITE))
					.withMessageContaining(key)
					.withMessageContaining("would wait for itself")
					.withMessageContaining("Take the write lock first");
				assertThat(scriptCalls(fixture)).as("scripts sent").isEqualTo(before);
				assertThat(reader.isReleased()).isFalse();
			}
		}
	}

	@Test
	void readerWhoseMemberWasRemovedIsToldItsLeaseIsLost() {
		RecordingLockListener listener = new RecordingLockListener();
		try (LockFixture fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1), listener)) {
			String key = TestRedis.uniqueKey("rw-lost");
			LockHandle reader = fixture.client.lock(key, READ);
			LockHandle other = this.clients.second().client.lock(key, READ);
			fixture.redis.opsForZSet().remove(key, ((RedisLockHandle) reader).token());
			await().atMost(Duration.ofSeconds(5)).until(() -> listener.lost.contains(reader));
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(reader::release);
			assertThat(this.clients.first().redis.opsForZSet().zCard(key)).as("the other reader still holds")
				.isEqualTo(1);
			other.release();
		}
	}

	private long queueLength(String key) {
		Long length = this.clients.first().redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key));
		return (length != null) ? length : 0;
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static long scriptCalls(LockFixture fixture) {
		Properties stats = fixture.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		long calls = 0;
		for (String command : new String[] { "cmdstat_evalsha", "cmdstat_eval" }) {
			String value = (stats != null) ? stats.getProperty(command) : null;
			if (value != null) {
				calls += Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"));
			}
		}
		return calls;
	}

}
