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

package dev.distlock.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Read-write locks of the in-memory client, with the semantics of the Redis client: many
 * readers or one writer, a writer queued before later readers is served first, every
 * reader's lease its own, read inside write re-entered and write inside read refused,
 * fencing tokens of writers above every earlier grant, and a key locked both ways
 * refused.
 */
class InMemoryReadWriteLockTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	private final EventRecorder events = new EventRecorder();

	private final InMemoryLockClient client = InMemoryLockClient.builder().listener(this.events).build();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void readersHoldTogether() throws Exception {
		int readers = 4;
		CountDownLatch allIn = new CountDownLatch(readers);
		CountDownLatch leave = new CountDownLatch(1);
		List<CompletableFuture<Long>> holds = new ArrayList<>();
		for (int i = 0; i < readers; i++) {
			holds.add(CompletableFuture.supplyAsync(() -> {
				try (LockHandle handle = this.client.lock("rw", read(Duration.ZERO))) {
					allIn.countDown();
					awaitQuietly(leave);
					return handle.fencingToken();
				}
			}, this.executor));
		}
		assertThat(allIn.await(10, TimeUnit.SECONDS)).as("all readers hold at once").isTrue();
		assertThat(inOtherThread(() -> this.client.tryLock("rw", write(Duration.ZERO)))).as("no writer meanwhile")
			.isEmpty();
		leave.countDown();
		assertThat(holds.stream().map(CompletableFuture::join).distinct()).as("a token per reader").hasSize(readers);
		inOtherThread(() -> this.client.lock("rw", write(Duration.ZERO))).release();
	}

	@Test
	void writerExcludesReadersAndWriters() {
		try (LockHandle writer = this.client.lock("rw", write(Duration.ZERO))) {
			assertThat(inOtherThread(() -> this.client.tryLock("rw", read(Duration.ofMillis(50))))).isEmpty();
			assertThat(inOtherThread(() -> this.client.tryLock("rw", write(Duration.ZERO)))).isEmpty();
		}
		try (LockHandle reader = this.client.lock("rw", read(Duration.ZERO))) {
			assertThat(inOtherThread(() -> this.client.tryLock("rw", write(Duration.ofMillis(50))))).isEmpty();
		}
	}

	@Test
	void writersCountExactlyWhileReadersRunAndNoReaderOverlapsAWriter() throws Exception {
		int[] counter = { 0 };
		HoldLog writes = new HoldLog();
		ConcurrentLinkedQueue<long[]> writeHolds = new ConcurrentLinkedQueue<>();
		ConcurrentLinkedQueue<long[]> readHolds = new ConcurrentLinkedQueue<>();
		ConcurrentRunner.run(6, 40, (thread) -> {
			boolean writer = thread < 4;
			try (LockHandle handle = this.client.lock("count",
					writer ? write(Duration.ofMinutes(1)) : read(Duration.ofMinutes(1)))) {
				long start = System.nanoTime();
				if (writer) {
					int read = counter[0];
					Thread.yield();
					counter[0] = read + 1;
				}
				long end = System.nanoTime();
				(writer ? writeHolds : readHolds).add(new long[] { start, end });
				if (writer) {
					writes.record(start, end);
				}
			}
		});
		assertThat(counter[0]).isEqualTo(4 * 40);
		writes.assertSerial(4 * 40);
		assertThat(readHolds).hasSize(2 * 40);
		long overlaps = readHolds.stream()
			.filter((read) -> writeHolds.stream().anyMatch((write) -> read[0] < write[1] && write[0] < read[1]))
			.count();
		assertThat(overlaps).as("reads that overlapped a write").isZero();
	}

	@Test
	void writerQueuedBeforeLaterReadersIsServedFirst() {
		LockHandle firstReader = this.client.lock("fifo", read(Duration.ZERO));
		List<String> served = Collections.synchronizedList(new ArrayList<>());
		CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
			try (LockHandle handle = this.client.lock("fifo", write(Duration.ofSeconds(20)))) {
				served.add("writer");
			}
		}, this.executor);
		await().atMost(Duration.ofSeconds(10)).until(() -> waiting("fifo") == 1);
		assertThat(inOtherThread(() -> this.client.tryLock("fifo", read(Duration.ZERO))))
			.as("a later reader does not pass the queued writer")
			.isEmpty();
		CompletableFuture<Void> laterReader = CompletableFuture.runAsync(() -> {
			try (LockHandle handle = this.client.lock("fifo", read(Duration.ofSeconds(20)))) {
				served.add("later reader");
			}
		}, this.executor);
		await().atMost(Duration.ofSeconds(10)).until(() -> waiting("fifo") == 2);
		firstReader.release();
		writer.join();
		laterReader.join();
		assertThat(served).containsExactly("writer", "later reader");
	}

	@Test
	void readerWhoseLeaseRanOutNoLongerKeepsTheWriterOut() {
		Duration lease = Duration.ofMillis(200);
		LockHandle crashed = inOtherThread(() -> this.client.lock("crash", read(Duration.ZERO).withLeaseTime(lease)));
		LockHandle alive = inOtherThread(() -> this.client.lock("crash", read(Duration.ZERO)));
		alive.release();
		long start = System.nanoTime();
		try (LockHandle writer = this.client.lock("crash", write(Duration.ofSeconds(20)))) {
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for the crashed reader's lease")
				.isLessThanOrEqualTo(lease.plusSeconds(10));
			assertThat(crashed.isLeaseLost()).isTrue();
		}
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(crashed::release);
	}

	@Test
	void readerWhoseThreadEndedWithoutReleasingLetsTheWriterIn() throws Exception {
		Thread reader = new Thread(
				() -> this.client.lock("ended", LockOptions.renewing(Duration.ZERO).withMode(LockMode.READ)));
		reader.start();
		reader.join(10_000);
		assertThat(this.client.tryLock("ended", write(Duration.ofSeconds(20)))).isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	@Test
	void writersFencingTokenExceedsEveryEarlierReadersAndWriters() {
		LockHandle firstWriter = this.client.lock("fence", write(Duration.ZERO));
		firstWriter.release();
		LockHandle reader1 = inOtherThread(() -> this.client.lock("fence", read(Duration.ZERO)));
		LockHandle reader2 = inOtherThread(() -> this.client.lock("fence", read(Duration.ZERO)));
		CompletableFuture<Long> writer = CompletableFuture.supplyAsync(() -> {
			try (LockHandle handle = this.client.lock("fence", write(Duration.ofSeconds(20)))) {
				return handle.fencingToken();
			}
		}, this.executor);
		await().atMost(Duration.ofSeconds(10)).until(() -> waiting("fence") == 1);
		reader1.release();
		reader2.release();
		assertThat(writer.join()).isGreaterThan(reader1.fencingToken())
			.isGreaterThan(reader2.fencingToken())
			.isGreaterThan(firstWriter.fencingToken());
		assertThat(reader1.fencingToken()).isGreaterThan(firstWriter.fencingToken());
	}

	@Test
	void readInsideWriteReentersTheWriteHold() {
		try (LockHandle writer = this.client.lock("reenter", write(Duration.ZERO))) {
			LockHandle reader = this.client.lock("reenter", read(Duration.ZERO));
			assertThat(reader.fencingToken()).isEqualTo(writer.fencingToken());
			reader.release();
			assertThat(inOtherThread(() -> this.client.tryLock("reenter", read(Duration.ZERO))))
				.as("still write-locked after the inner read")
				.isEmpty();
		}
		inOtherThread(() -> this.client.lock("reenter", write(Duration.ZERO))).release();
	}

	@Test
	void readInsideReadReenters() {
		try (LockHandle outer = this.client.lock("reread", read(Duration.ZERO))) {
			try (LockHandle inner = this.client.lock("reread", read(Duration.ZERO))) {
				assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
			}
			assertThat(inOtherThread(() -> this.client.tryLock("reread", write(Duration.ZERO)))).isEmpty();
		}
	}

	@Test
	void writeInsideReadIsRefusedAndTheReadHoldStays() {
		try (LockHandle reader = this.client.lock("upgrade", read(Duration.ZERO))) {
			assertThatExceptionOfType(IllegalLockUpgradeException.class)
				.isThrownBy(() -> this.client.lock("upgrade", write(Duration.ofSeconds(20))))
				.withMessageContaining("'upgrade'")
				.withMessageContaining("the write lock would wait for itself");
			assertThat(inOtherThread(() -> this.client.tryLock("upgrade", write(Duration.ZERO)))).isEmpty();
			assertThat(inOtherThread(() -> this.client.tryLock("upgrade", read(Duration.ZERO)))).isPresent()
				.get()
				.satisfies(LockHandle::release);
		}
		inOtherThread(() -> this.client.lock("upgrade", write(Duration.ZERO))).release();
	}

	@Test
	void keyLockedExclusivelyIsRefusedAsAReadWriteLockBothWays() {
		try (LockHandle exclusive = this.client.lock("kinds", new LockOptions(Duration.ZERO, LONG_LEASE))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> inOtherThread(() -> this.client.lock("kinds", read(Duration.ofSeconds(20)))))
				.withMessageContaining("Could not acquire lock 'kinds' as the read side of a read-write lock: it "
						+ "is an exclusive lock now")
				.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("kinds"));
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.client.lock("kinds", write(Duration.ZERO)))
				.withMessageContaining("held by this thread as an exclusive lock");
		}
		try (LockHandle reader = this.client.lock("kinds", read(Duration.ZERO))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> inOtherThread(
						() -> this.client.lock("kinds", new LockOptions(Duration.ofSeconds(20), LONG_LEASE))))
				.withMessageContaining("as an exclusive lock: it is a read-write lock now");
		}
		inOtherThread(() -> this.client.lock("kinds", new LockOptions(Duration.ZERO, LONG_LEASE))).release();
	}

	private long waiting(String key) {
		return this.events.of(key).stream().filter("startedWaiting"::equals).count();
	}

	private static LockOptions read(Duration waitTime) {
		return new LockOptions(waitTime, LONG_LEASE).withMode(LockMode.READ);
	}

	private static LockOptions write(Duration waitTime) {
		return new LockOptions(waitTime, LONG_LEASE).withMode(LockMode.WRITE);
	}

	/** Acquires on a thread of its own: a thread re-enters what it holds. */
	static <T> T inOtherThread(Supplier<T> action) {
		CompletableFuture<T> result = new CompletableFuture<>();
		new Thread(() -> {
			try {
				result.complete(action.get());
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}).start();
		try {
			return result.get(30, TimeUnit.SECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : new IllegalStateException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
