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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;

import static dev.distlock.memory.InMemoryReadWriteLockTests.awaitQuietly;
import static dev.distlock.memory.InMemoryReadWriteLockTests.inOtherThread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Semaphores of the in-memory client ({@link LockOptions#permits()} above one), with the
 * semantics of the Redis client: at most that many holders, each permit with a lease of
 * its own, waiters served first come, first served, a new fencing token per grant, a
 * permit re-entered by its thread, and one key used with two permit counts or as another
 * kind of lock refused.
 */
class InMemorySemaphoreTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	private final EventRecorder events = new EventRecorder();

	private final InMemoryLockClient client = InMemoryLockClient.builder().listener(this.events).build();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void admitsThreeHoldersAndNotAFourth() throws Exception {
		CountDownLatch allIn = new CountDownLatch(3);
		CountDownLatch leave = new CountDownLatch(1);
		List<CompletableFuture<Void>> holders = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			holders.add(CompletableFuture.runAsync(() -> {
				try (LockHandle handle = this.client.lock("sem", permits(3, Duration.ZERO))) {
					allIn.countDown();
					awaitQuietly(leave);
				}
			}, this.executor));
		}
		assertThat(allIn.await(10, TimeUnit.SECONDS)).as("three holders at once").isTrue();
		assertThat(inOtherThread(() -> this.client.tryLock("sem", permits(3, Duration.ofMillis(50))))).isEmpty();
		leave.countDown();
		holders.forEach(CompletableFuture::join);
		inOtherThread(() -> this.client.lock("sem", permits(3, Duration.ZERO))).release();
	}

	@Test
	void neverMoreHoldersThanPermitsUnderLoad() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger mostInside = new AtomicInteger();
		AtomicInteger calls = new AtomicInteger();
		ConcurrentRunner.run(8, 30, (thread) -> {
			try (LockHandle handle = this.client.lock("load", permits(3, Duration.ofMinutes(1)))) {
				mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
				Thread.yield();
				inside.decrementAndGet();
				calls.incrementAndGet();
			}
		});
		assertThat(calls.get()).isEqualTo(8 * 30);
		assertThat(mostInside.get()).as("most holders at once").isBetween(1, 3);
	}

	@Test
	void crashedHoldersPermitReturnsAfterItsLease() {
		Duration lease = Duration.ofMillis(200);
		LockHandle crashed = inOtherThread(
				() -> this.client.lock("crash", permits(2, Duration.ZERO).withLeaseTime(lease)));
		LockHandle other = inOtherThread(() -> this.client.lock("crash", permits(2, Duration.ZERO)));
		try (LockHandle next = this.client.lock("crash", permits(2, Duration.ofSeconds(20)))) {
			assertThat(crashed.isLeaseLost()).isTrue();
			assertThat(next.fencingToken()).isGreaterThan(other.fencingToken());
		}
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(crashed::release);
		other.release();
	}

	@Test
	void waitersAreServedInArrivalOrderEachWithANewFencingToken() {
		// Fixed leases: the threads that took them end at once, and an auto-renewed hold
		// of
		// an ended thread would be taken back at the next change of the key, letting two
		// waiters in together.
		Duration lease = Duration.ofSeconds(30);
		LockHandle first = inOtherThread(
				() -> this.client.lock("fifo", permits(2, Duration.ZERO).withLeaseTime(lease)));
		LockHandle second = inOtherThread(
				() -> this.client.lock("fifo", permits(2, Duration.ZERO).withLeaseTime(lease)));
		List<Integer> served = Collections.synchronizedList(new ArrayList<>());
		List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
		CountDownLatch leave = new CountDownLatch(1);
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			int arrival = i;
			waiters.add(CompletableFuture.runAsync(() -> {
				try (LockHandle handle = this.client.lock("fifo", permits(2, Duration.ofSeconds(20)))) {
					served.add(arrival);
					tokens.add(handle.fencingToken());
					if (arrival == 0) {
						awaitQuietly(leave);
					}
				}
			}, this.executor));
			await().atMost(Duration.ofSeconds(10)).until(() -> waiting("fifo") == arrival + 1);
		}
		first.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> served.size() == 1);
		second.release();
		// Waiter 1 is granted the permit now; let waiter 0 go only once it has said so,
		// or waiter 2 (granted when waiter 0 leaves) could record itself first.
		await().atMost(Duration.ofSeconds(10)).until(() -> served.size() >= 2);
		leave.countDown();
		waiters.forEach(CompletableFuture::join);
		assertThat(served).containsExactly(0, 1, 2);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		assertThat(tokens.get(0)).isGreaterThan(second.fencingToken());
	}

	@Test
	void permitIsReenteredByItsThread() {
		try (LockHandle outer = this.client.lock("reenter", permits(2, Duration.ZERO))) {
			try (LockHandle inner = this.client.lock("reenter", permits(2, Duration.ZERO))) {
				assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
				LockHandle other = inOtherThread(() -> this.client.lock("reenter", permits(2, Duration.ZERO)));
				assertThat(inOtherThread(() -> this.client.tryLock("reenter", permits(2, Duration.ZERO))))
					.as("one permit per thread, however often re-entered")
					.isEmpty();
				other.release();
			}
		}
	}

	@Test
	void differentPermitsOnOneKeyAreRefusedNamingBothCounts() {
		try (LockHandle held = this.client.lock("partner", permits(3, Duration.ZERO))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> inOtherThread(() -> this.client.lock("partner", permits(5, Duration.ofSeconds(20)))))
				.withMessageContaining("Could not acquire lock 'partner' as a semaphore of 5 permits: it is a "
						+ "semaphore of 3 permits now. Every use of a key must give the same permits");
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> this.client.lock("partner", permits(5, Duration.ZERO)))
				.withMessageContaining("held by this thread as a semaphore of 3 permits");
		}
		inOtherThread(() -> this.client.lock("partner", permits(5, Duration.ZERO))).release();
	}

	@Test
	void semaphoreKeyIsRefusedAsAReadWriteOrExclusiveLock() {
		try (LockHandle held = this.client.lock("kinds", permits(3, Duration.ZERO))) {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> inOtherThread(() -> this.client.lock("kinds",
						new LockOptions(Duration.ZERO, LONG_LEASE).withMode(LockMode.WRITE))))
				.withMessageContaining("as the write side of a read-write lock: it is a semaphore of 3 permits now");
			assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(
					() -> inOtherThread(() -> this.client.lock("kinds", new LockOptions(Duration.ZERO, LONG_LEASE))))
				.withMessageContaining("as an exclusive lock: it is a semaphore of 3 permits now");
		}
	}

	private long waiting(String key) {
		return this.events.of(key).stream().filter("startedWaiting"::equals).count();
	}

	private static LockOptions permits(int permits, Duration waitTime) {
		return new LockOptions(waitTime, LONG_LEASE).withPermits(permits);
	}

}
