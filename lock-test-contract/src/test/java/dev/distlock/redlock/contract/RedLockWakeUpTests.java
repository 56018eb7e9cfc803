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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.redlock.RedLockNodeOutcomes;
import dev.distlock.test.redis.RedisAdminCommands;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waiters woken by a release on any node, on real {@code redis-server} processes. Every
 * client here pauses 30 to 60 s between attempts when nothing wakes it, so a waiter that
 * gets the lock within a few seconds of a release can only have been woken by it; the
 * control frees the lock without a release message and shows that nobody then gets it
 * until a message comes.
 */
class RedLockWakeUpTests {

	/**
	 * With a node down, one more reply slower than this fails an attempt as unavailable:
	 * room for a loaded machine.
	 */
	private static final Duration NODE_TIMEOUT = Duration.ofMillis(300);

	/** Far longer than any wait below: only a wake-up explains a quick acquisition. */
	private static final Duration LONG_PAUSE = Duration.ofSeconds(60);

	/**
	 * A fraction of the shortest pause (half of LONG_PAUSE), with room for a slow
	 * machine.
	 */
	private static final Duration WOKEN_WITHIN = Duration.ofSeconds(5);

	private static final LockOptions FIXED_LEASE = new LockOptions(Duration.ZERO, Duration.ofSeconds(20));

	private static final LockOptions WAITING = new LockOptions(Duration.ofSeconds(50), Duration.ofSeconds(20));

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void waiterIsWokenByTheReleaseLongBeforeItsPause() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			WaitingListener waits = new WaitingListener();
			RedLockClient holder = client(nodes, null);
			RedLockClient waiter = client(nodes, waits);
			String key = "wake:" + UUID.randomUUID();
			LockHandle held = holder.lock(key, FIXED_LEASE);
			Future<LockHandle> waited = this.threads.submit(() -> waiter.lock(key, WAITING));
			waits.awaitWaiting(1);
			long released = System.nanoTime();
			held.release();
			try (LockHandle next = waited.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
				assertThat(Duration.ofNanos(System.nanoTime() - released)).as("from the release to the grant")
					.isLessThan(WOKEN_WITHIN);
				assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
			}
		}
	}

	@Test
	void waitersOfOneClientAreWokenOneAfterAnotherInTheOrderTheyCame() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			WaitingListener waits = new WaitingListener();
			RedLockClient holder = client(nodes, null);
			RedLockClient waiter = client(nodes, waits);
			String key = "wake:" + UUID.randomUUID();
			LockHandle held = holder.lock(key, FIXED_LEASE);
			List<Integer> order = new CopyOnWriteArrayList<>();
			List<Future<?>> done = new java.util.ArrayList<>();
			for (int i = 0; i < 3; i++) {
				int index = i;
				done.add(this.threads.submit(() -> {
					try (LockHandle handle = waiter.lock(key, WAITING)) {
						order.add(index);
					}
					return null;
				}));
				waits.awaitWaiting(i + 1);
			}
			long released = System.nanoTime();
			held.release();
			for (Future<?> each : done) {
				each.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
			}
			assertThat(Duration.ofNanos(System.nanoTime() - released)).as("three hand-overs, each by a wake-up")
				.isLessThan(WOKEN_WITHIN);
			assertThat(order).containsExactly(0, 1, 2);
		}
	}

	@Test
	void nodeDownDoesNotStopWakeUpsFromTheOthers() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			WaitingListener waits = new WaitingListener();
			RedLockClient holder = client(nodes, null);
			RedLockClient waiter = client(nodes, waits);
			String key = "wake:" + UUID.randomUUID();
			LockHandle held = holder.lock(key, FIXED_LEASE);
			Future<LockHandle> waited = this.threads.submit(() -> waiter.lock(key, WAITING));
			waits.awaitWaiting(1);
			// Subscribed on every node by now, or soon: node 0 goes, with its
			// subscription.
			nodes.server(0).crash();
			held.release();
			try (LockHandle next = waited.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
				assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
			}
		}
	}

	@Test
	void controlALockFreedWithoutAReleaseMessageIsTakenOnlyWhenAMessageComes() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			WaitingListener waits = new WaitingListener();
			RedLockClient holder = client(nodes, null);
			RedLockClient waiter = client(nodes, waits);
			String key = "wake:" + UUID.randomUUID();
			String channel = new LockKeyspace("", false, 1024).unlockedChannel(key);
			holder.lock(key, FIXED_LEASE);
			Future<LockHandle> waited = this.threads.submit(() -> waiter.lock(key, WAITING));
			waits.awaitWaiting(1);
			awaitSubscribers(nodes, channel);
			// A message while the lock is held: the waiter tries, is refused, and waits
			// on.
			long refused = refused(waiter);
			RedisAdminCommands.call(nodes.server(1), "PUBLISH", channel, "not-a-release");
			long deadline = System.nanoTime() + WOKEN_WITHIN.toNanos();
			while (refused(waiter) == refused) {
				assertThat(System.nanoTime() - deadline).as("an attempt after the message").isNegative();
				Thread.sleep(5);
			}
			assertThat(waited).isNotDone();
			// Freed on every node with DEL, which announces nothing: nobody wakes.
			for (int i = 0; i < 3; i++) {
				RedisAdminCommands.call(nodes.server(i), "DEL", key);
			}
			assertThat(stillWaitingAfter(waited, Duration.ofSeconds(2))).as("still waiting without a message").isTrue();
			// The message wakes it.
			RedisAdminCommands.call(nodes.server(2), "PUBLISH", channel, "released-by-hand");
			try (LockHandle next = waited.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)) {
				assertThat(next.fencingToken()).isPositive();
			}
		}
	}

	private static RedLockClient client(RedLockNodes nodes, LockListener listener) {
		return nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3), (builder) -> {
			builder.retryPause(LONG_PAUSE);
			return (listener != null) ? builder.listener(listener) : builder;
		});
	}

	private static long refused(RedLockClient client) {
		return client.nodeOutcomes().stream().mapToLong(RedLockNodeOutcomes::refused).sum();
	}

	private static void awaitSubscribers(RedLockNodes nodes, String channel) throws InterruptedException {
		long deadline = System.nanoTime() + WOKEN_WITHIN.toNanos();
		for (int i = 0; i < 3; i++) {
			while (!List.of(channel, 1L)
				.equals(RedisAdminCommands.call(nodes.server(i), "PUBSUB", "NUMSUB", channel))) {
				assertThat(System.nanoTime() - deadline).as("subscribed on node %d", i).isNegative();
				Thread.sleep(5);
			}
		}
	}

	/** Whether the future is still not done after the given time. */
	private static boolean stillWaitingAfter(Future<?> future, Duration time) throws Exception {
		try {
			future.get(time.toMillis(), TimeUnit.MILLISECONDS);
			return false;
		}
		catch (java.util.concurrent.TimeoutException ex) {
			return true;
		}
	}

	/** Counts the acquisitions that started waiting. */
	private static final class WaitingListener implements LockListener {

		private final List<CountDownLatch> started = List.of(new CountDownLatch(1), new CountDownLatch(2),
				new CountDownLatch(3));

		@Override
		public void startedWaiting(String key, LockOptions options) {
			this.started.forEach(CountDownLatch::countDown);
		}

		void awaitWaiting(int count) throws InterruptedException {
			assertThat(this.started.get(count - 1).await(10, TimeUnit.SECONDS)).as("%d waiting", count).isTrue();
		}

	}

}
