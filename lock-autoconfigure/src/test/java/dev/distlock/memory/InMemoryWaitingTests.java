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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiting for a lock of the in-memory client: first come, first served, with no later
 * arrival taking a lock that becomes free ahead of a waiter, and a minimum hold that
 * keeps the lock after its release.
 */
class InMemoryWaitingTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	private final EventRecorder events = new EventRecorder();

	private final InMemoryLockClient client = InMemoryLockClient.builder().listener(this.events).build();

	private final ExecutorService executor = Executors.newFixedThreadPool(5);

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void waitersAreServedInArrivalOrder() {
		String key = "fifo";
		LockHandle held = this.client.lock(key, fixed(Duration.ZERO));
		List<Integer> served = Collections.synchronizedList(new ArrayList<>());
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			int arrival = i;
			waiters.add(CompletableFuture.runAsync(() -> {
				try (LockHandle handle = this.client.lock(key, fixed(Duration.ofSeconds(20)))) {
					served.add(arrival);
				}
			}, this.executor));
			await().atMost(Duration.ofSeconds(10)).until(() -> waiting(key) == arrival + 1);
		}
		held.release();
		waiters.forEach(CompletableFuture::join);
		assertThat(served).containsExactly(0, 1, 2, 3, 4);
	}

	@Test
	void aLockTakenBackFromAnEndedHolderGoesToTheWaiterNotToALaterArrival() throws Exception {
		String key = "no-barging";
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch end = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			this.client.lock(key, LockOptions.renewing(Duration.ZERO));
			holding.countDown();
			awaitQuietly(end);
		});
		holder.start();
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture
			.supplyAsync(() -> this.client.tryLock(key, fixed(Duration.ofSeconds(20))), this.executor);
		await().atMost(Duration.ofSeconds(10)).until(() -> waiting(key) == 1);
		end.countDown();
		holder.join(10_000);
		assertThat(this.client.tryLock(key, fixed(Duration.ZERO))).as("a later arrival does not go first").isEmpty();
		assertThat(waiter.get(10, TimeUnit.SECONDS)).as("the waiter is handed the lock")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	@Test
	void minimumHoldKeepsTheLockAfterItsRelease() {
		String key = "min-hold";
		Duration minHold = Duration.ofMillis(300);
		long start = System.nanoTime();
		this.client.lock(key, new LockOptions(Duration.ZERO, LONG_LEASE, minHold)).release();
		Optional<LockHandle> next = CompletableFuture
			.supplyAsync(() -> this.client.tryLock(key, fixed(Duration.ofSeconds(20))), this.executor)
			.join();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("acquired after the minimum hold")
			.isGreaterThanOrEqualTo(minHold);
		assertThat(next).isPresent().get().satisfies(LockHandle::release);
	}

	@Test
	void minimumHoldKeepsOutEvenTheThreadThatReleased() {
		String key = "min-hold-same-thread";
		this.client.lock(key, new LockOptions(Duration.ZERO, LONG_LEASE, Duration.ofSeconds(30))).release();
		assertThat(this.client.tryLock(key, fixed(Duration.ZERO))).isEmpty();
	}

	private long waiting(String key) {
		return this.events.of(key).stream().filter("startedWaiting"::equals).count();
	}

	private static LockOptions fixed(Duration waitTime) {
		return new LockOptions(waitTime, LONG_LEASE);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
