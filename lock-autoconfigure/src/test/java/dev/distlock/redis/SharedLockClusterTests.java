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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Read-write locks and semaphores on a Redis Cluster of 3 masters, between two instances
 * whose lock clients Spring Boot builds from {@code spring.data.redis.cluster.nodes}:
 * readers hold together and renew on every master at once, a queued writer is served
 * before later readers and every hand-over comes by a sharded message ({@code SPUBLISH}
 * on the lock's master only), and permits are never exceeded on keys of every master at
 * once, with exact counts.
 */
class SharedLockClusterTests {

	private static final LockOptions READ = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.READ);

	private static final LockOptions WRITE = READ.withMode(LockMode.WRITE);

	private static final int PERMITS = 3;

	/** A thread per blocking caller (the common pool may have too few). */
	private static final Executor THREADS = (task) -> new Thread(task).start();

	private static final LockOptions PERMIT = LockOptions.renewing(Duration.ofSeconds(20)).withPermits(PERMITS);

	private static RedisClusterDeployment cluster;

	private static BootLockInstance one;

	private static BootLockInstance two;

	@BeforeAll
	static void start() {
		cluster = RedisClusterDeployment.start();
		String[] properties = { "spring.data.redis.cluster.nodes=" + cluster.clusterNodes(),
				"distlock.renewal.lease=2s" };
		one = BootLockInstance.start(properties);
		two = BootLockInstance.start(properties);
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable closeable : new AutoCloseable[] { one, two, cluster }) {
			try {
				if (closeable != null) {
					closeable.close();
				}
			}
			catch (Exception ex) {
				// Closing the rest matters more.
			}
		}
	}

	@Test
	void readersOfBothInstancesHoldTogetherAndRenewOnEveryMaster() throws Exception {
		assertThat(one.client.monitor().isCluster()).isTrue();
		Map<LockHandle, Double> granted = new LinkedHashMap<>();
		for (String key : oneKeyPerMaster("readers")) {
			LockHandle first = one.client.lock(key, READ);
			LockHandle second = two.client.tryLock(key, READ.withWaitTime(Duration.ZERO)).orElseThrow();
			String lockKey = one.lockKey(key);
			assertThat(one.redis.opsForZSet().range(lockKey, 0, -1)).as("holders of %s", key)
				.hasSize(2)
				.allMatch((member) -> member.startsWith("r."));
			assertThat(CompletableFuture
				.supplyAsync(() -> two.client.tryLock(key, WRITE.withWaitTime(Duration.ZERO)), THREADS)
				.get(10, TimeUnit.SECONDS)).as("a writer while %s is read", key).isEmpty();
			granted.put(first, score(first));
			granted.put(second, score(second));
		}
		// Each slot's holds are renewed by a script on that slot's master.
		granted
			.forEach((held, score) -> await().atMost(Duration.ofSeconds(10)).until(() -> score(held) > score + 1500));
		for (LockHandle held : granted.keySet()) {
			assertThat(held.isLeaseLost()).isFalse();
			held.release();
		}
		assertThat(granted.keySet()).noneMatch((held) -> one.redis.hasKey(held.key()));
	}

	@Test
	void queuedWriterIsServedBeforeLaterReadersAndEveryHandOverComesByShardedMessage() throws Exception {
		String key = "lock:shared:fair";
		RedisServerProcess master = cluster.masterOf(one.lockKey(key));
		LockHandle reader = one.client.lock(key, READ);
		two.client.tryLock(key, READ.withWaitTime(Duration.ZERO)).orElseThrow().release();
		List<NodeTraffic> before = NodeTraffic.read(cluster);
		long handOversBefore = one.waiter().handOvers() + two.waiter().handOvers();
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch writerMayRelease = new CountDownLatch(1);
		CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
			try (LockHandle held = two.client.lock(key, WRITE)) {
				order.add("writer");
				writerMayRelease.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, THREADS);
		await().atMost(Duration.ofSeconds(10)).until(() -> one.queued(key) == 1);
		assertThat(two.client.tryLock(key, READ.withWaitTime(Duration.ZERO))).as("a reader after the queued writer")
			.isEmpty();
		List<CompletableFuture<Void>> lateReaders = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			BootLockInstance instance = (i % 2 == 0) ? one : two;
			lateReaders.add(CompletableFuture.runAsync(() -> {
				try (LockHandle held = instance.client.lock(key, READ)) {
					order.add("reader");
				}
			}, THREADS));
			int queued = i + 2;
			await().atMost(Duration.ofSeconds(10)).until(() -> one.queued(key) == queued);
		}
		reader.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> order.contains("writer"));
		assertThat(order).containsExactly("writer");
		writerMayRelease.countDown();
		writer.get(20, TimeUnit.SECONDS);
		CompletableFuture.allOf(lateReaders.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
		assertThat(order).containsExactly("writer", "reader", "reader", "reader");
		assertThat(one.waiter().handOvers() + two.waiter().handOvers() - handOversBefore)
			.as("waiters woken by a hand-over message")
			.isEqualTo(4);
		for (NodeTraffic node : NodeTraffic.delta(before, NodeTraffic.read(cluster))) {
			assertThat(node.spublish()).as("SPUBLISH on %s", node).isEqualTo((node.node() == master) ? 4 : 0);
			assertThat(node.publish()).as("classic PUBLISH on %s", node).isZero();
		}
		assertThat(one.redis.hasKey(one.lockKey(key))).isFalse();
	}

	@Test
	void threePermitsAcrossInstancesAndAFourthIsHandedOneByShardedMessage() throws Exception {
		String key = "lock:shared:permits";
		RedisServerProcess master = cluster.masterOf(one.lockKey(key));
		List<LockHandle> holders = new ArrayList<>();
		for (BootLockInstance instance : List.of(one, one, two)) {
			holders.add(CompletableFuture.supplyAsync(() -> instance.client.lock(key, PERMIT), THREADS)
				.get(10, TimeUnit.SECONDS));
		}
		assertThat(one.redis.opsForZSet().range(one.lockKey(key), 0, -1)).hasSize(PERMITS)
			.allMatch((member) -> member.startsWith("s3."));
		assertThat(two.client.tryLock(key, PERMIT.withWaitTime(Duration.ZERO))).as("a fourth permit").isEmpty();
		long handOversBefore = two.waiter().handOvers();
		long spublishBefore = NodeTraffic.commandCalls(master, "spublish");
		CompletableFuture<LockHandle> fourth = CompletableFuture.supplyAsync(() -> two.client.lock(key, PERMIT),
				THREADS);
		await().atMost(Duration.ofSeconds(10)).until(() -> two.queued(key) == 1);
		holders.get(0).release();
		LockHandle handed = fourth.get(20, TimeUnit.SECONDS);
		assertThat(two.waiter().handOvers() - handOversBefore).as("woken by the message").isEqualTo(1);
		assertThat(NodeTraffic.commandCalls(master, "spublish") - spublishBefore).isEqualTo(1);
		for (LockHandle earlier : holders) {
			assertThat(handed.fencingToken()).isGreaterThan(earlier.fencingToken());
		}
		handed.release();
		holders.subList(1, PERMITS).forEach(LockHandle::release);
		assertThat(one.redis.hasKey(one.lockKey(key))).isFalse();
	}

	@Test
	void permitsAreNeverExceededOnKeysOfEveryMasterAtOnceAndCountExactly() throws Exception {
		List<String> keys = oneKeyPerMaster("permits-load");
		int threads = 8;
		int iterations = 12;
		AtomicInteger[] holdersNow = counters(keys.size());
		AtomicInteger[] mostHolders = counters(keys.size());
		int[] calls = new int[threads];
		int[][] holds = new int[threads][keys.size()];
		ConcurrentRunner.run(threads, iterations, (thread) -> {
			// Each thread takes the keys in turn, starting with its own.
			int k = (thread + calls[thread]++) % keys.size();
			try (LockHandle held = ((thread < 4) ? one : two).client.lock(keys.get(k), PERMIT)) {
				mostHolders[k].accumulateAndGet(holdersNow[k].incrementAndGet(), Math::max);
				// Work while holding: long enough for the other permits to be taken.
				long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
				while (System.nanoTime() - until < 0) {
					Thread.onSpinWait();
				}
				holdersNow[k].decrementAndGet();
				holds[thread][k]++;
			}
		});
		for (int k = 0; k < keys.size(); k++) {
			int expected = 0;
			int total = 0;
			for (int thread = 0; thread < threads; thread++) {
				total += holds[thread][k];
				for (int i = 0; i < iterations; i++) {
					expected += ((thread + i) % keys.size() == k) ? 1 : 0;
				}
			}
			assertThat(total).as("holds of %s", keys.get(k)).isEqualTo(expected);
			assertThat(mostHolders[k].get()).as("most holders of %s at once", keys.get(k)).isBetween(1, PERMITS);
			assertThat(one.redis.hasKey(one.lockKey(keys.get(k)))).isFalse();
		}
	}

	private static double score(LockHandle held) {
		Double score = one.redis.opsForZSet().score(held.key(), ((RedisLockHandle) held).token());
		return (score != null) ? score : 0;
	}

	private static AtomicInteger[] counters(int size) {
		AtomicInteger[] counters = new AtomicInteger[size];
		for (int i = 0; i < size; i++) {
			counters[i] = new AtomicInteger();
		}
		return counters;
	}

	/** Returns keys whose slots the 3 masters serve, one key per master. */
	private static List<String> oneKeyPerMaster(String name) {
		Map<Integer, String> byMaster = new LinkedHashMap<>();
		for (int i = 0; byMaster.size() < 3; i++) {
			String key = "lock:shared:" + name + ":" + i;
			byMaster.putIfAbsent(cluster.masterOf(key).port(), key);
		}
		return List.copyOf(byMaster.values());
	}

}
