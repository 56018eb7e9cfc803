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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockUnavailableException;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static dev.distlock.redis.ShardedReleaseChannelTests.queued;
import static dev.distlock.redis.ShardedReleaseChannelTests.subscribers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After the master of a lock's slot is killed and its replica promoted, a waiter of a
 * client with sharded release channels is subscribed on the promoted master within 5
 * seconds, as the issue requires, and handed the lock by message again. Prints the time
 * from promotion to each step.
 */
class ShardedReleaseFailoverTests {

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void waiterIsHandedTheLockByMessageAgainAfterPromotion() throws Exception {
		String key = "lock:sharded:failover";
		try (ClusterLockSide holder = new ClusterLockSide(cluster, true);
				ClusterLockSide waiter = new ClusterLockSide(cluster, true)) {
			RedisServerProcess master = cluster.masterOf(key);
			String channel = waiter.channelOf(key);
			LockHandle held = holder.client.lock(key);
			CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> lockThroughOutage(waiter, key));
			await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(master, channel) == 1);
			cluster.kill(master);
			RedisServerProcess promoted = cluster.awaitPromotion(key, Duration.ofSeconds(20));
			long promotedAt = System.nanoTime();
			// The issue requires recovery within 5 s of a promotion.
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> subscribers(promoted, channel) == 1);
			long subscribed = millisSince(promotedAt);
			await().atMost(Duration.ofSeconds(15))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> queuedOn(promoted, key) == 1);
			long queued = millisSince(promotedAt);
			// The holder's own client must find the promoted master before it can
			// release.
			await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> queued(holder, key) == 1);
			long holderReady = millisSince(promotedAt);
			held.close();
			waiting.get(20, TimeUnit.SECONDS).close();
			System.out.println("After promotion: sharded subscription on the promoted master in " + subscribed
					+ "ms, waiter's queue place in " + queued + "ms, holder's client reaches it in " + holderReady
					+ "ms, waiter woken by message in " + millisSince(promotedAt) + "ms");
			assertThat(waiter.waiter().handOvers()).as("woken by the message on the promoted master").isEqualTo(1);
		}
	}

	private static long queuedOn(RedisServerProcess master, String key) {
		return (Long) RedisAdminCommands.call(master, "LLEN", ClusterLockSide.KEYSPACE.queueKey(key));
	}

	private static long millisSince(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
	}

	/** Locks, trying again while the slot's master is down, until the lock is held. */
	private static LockHandle lockThroughOutage(ClusterLockSide side, String key) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (true) {
			try {
				return side.client.lock(key, side.client.defaultOptions().withWaitTime(Duration.ofSeconds(30)));
			}
			catch (LockUnavailableException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw ex;
				}
			}
		}
	}

}
