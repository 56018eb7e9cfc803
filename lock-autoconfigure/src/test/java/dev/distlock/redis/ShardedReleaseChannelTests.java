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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.distlock.LockHandle;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hand-overs between two clients on a real Redis Cluster go on sharded channels in the
 * lock's slot: a waiter is woken by the message, its client subscribes to the slot only
 * while it waits, and the messages reach only the lock's master and its replica. The
 * control, the one classic channel, reaches every node. Health shows the slots subscribed
 * now, and the eviction policy of every master.
 */
class ShardedReleaseChannelTests {

	private static final int HAND_OVERS = 20;

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
	void waiterIsHandedTheLockByShardedMessageAndSubscribesOnlyWhileItWaits() throws Exception {
		String key = "lock:sharded:wait";
		try (ClusterLockSide holder = new ClusterLockSide(cluster, true);
				ClusterLockSide waiter = new ClusterLockSide(cluster, true)) {
			RedisServerProcess master = cluster.masterOf(key);
			String channel = waiter.channelOf(key);
			assertThat(subscribers(master, channel)).as("before anyone waits").isZero();
			LockHandle held = holder.client.lock(key);
			CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(
					() -> waiter.client.lock(key, waiter.client.defaultOptions().withWaitTime(Duration.ofSeconds(20))));
			await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(master, channel) == 1);
			await().atMost(Duration.ofSeconds(10)).until(() -> queued(holder, key) == 1);
			held.close();
			LockHandle handedOver = waiting.get();
			assertThat(waiter.waiter().handOvers()).as("woken by the message").isEqualTo(1);
			handedOver.close();
			await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(master, channel) == 0);
		}
	}

	@Test
	void callerThatWouldWaitButFindsTheLockFreeNeverSubscribes() {
		String key = "lock:sharded:free";
		try (ClusterLockSide side = new ClusterLockSide(cluster, true)) {
			// The first acquisition runs the acquire script, later ones a plain SET NX.
			// No wait time: the warm-up subscribes nothing that could reach the server
			// after the counts are read.
			side.client.lock(key, side.client.defaultOptions().withWaitTime(Duration.ZERO)).close();
			RedisServerProcess master = cluster.masterOf(key);
			long subscribes = NodeTraffic.commandCalls(master, "ssubscribe");
			long unsubscribes = NodeTraffic.commandCalls(master, "sunsubscribe");
			for (int i = 0; i < 20; i++) {
				side.client.lock(key, side.client.defaultOptions().withWaitTime(Duration.ofSeconds(20))).close();
			}
			assertThat(NodeTraffic.commandCalls(master, "ssubscribe") - subscribes).as("SSUBSCRIBE").isZero();
			assertThat(NodeTraffic.commandCalls(master, "sunsubscribe") - unsubscribes).as("SUNSUBSCRIBE").isZero();
			assertThat(subscribers(master, side.channelOf(key))).isZero();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void healthShowsTheSlotsSubscribedNowAndIsUpWhileNobodyWaits() throws Exception {
		String key = "lock:sharded:health";
		try (ClusterLockSide holder = new ClusterLockSide(cluster, true);
				ClusterLockSide waiter = new ClusterLockSide(cluster, true)) {
			DistributedLockHealthIndicator indicator = new DistributedLockHealthIndicator(waiter.client.monitor());
			Health idle = indicator.health();
			assertThat(idle.getStatus()).as("nobody waits: nothing subscribed, as it should be").isEqualTo(Status.UP);
			assertThat((Map<String, Object>) idle.getDetails().get("releaseSubscription"))
				.containsEntry("sharded", true)
				.containsEntry("running", true)
				.containsEntry("subscribedSlots", List.of())
				.containsEntry("pendingSlots", List.of());
			RedisServerProcess master = cluster.masterOf(key);
			assertThat((Map<String, Object>) idle.getDetails().get("maxmemoryPolicy"))
				.as("the eviction policy of each master, by host:port")
				.containsKey(master.host() + ":" + master.port())
				.allSatisfy((node, policy) -> assertThat((Map<String, Object>) policy).containsEntry("evictsLockKeys",
						false));
			LockHandle held = holder.client.lock(key);
			CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(
					() -> waiter.client.lock(key, waiter.client.defaultOptions().withWaitTime(Duration.ofSeconds(20))));
			await().atMost(Duration.ofSeconds(10)).until(() -> queued(holder, key) == 1);
			Health subscribed = indicator.health();
			assertThat(subscribed.getStatus()).isEqualTo(Status.UP);
			assertThat((Map<String, Object>) subscribed.getDetails().get("releaseSubscription"))
				.containsEntry("subscribedSlots", List.of(cluster.slotOf(key)))
				.containsEntry("pendingSlots", List.of())
				.containsEntry("connected", true);
			held.close();
			waiting.get().close();
			waiter.client.stop();
			Health stopped = indicator.health();
			assertThat(stopped.getStatus()).as("stopped: no waiter can be told").isEqualTo(Status.DOWN);
			assertThat((Map<String, Object>) stopped.getDetails().get("releaseSubscription"))
				.containsEntry("running", false)
				.containsEntry("subscribedSlots", List.of())
				.containsEntry("connected", false);
		}
	}

	@Test
	void shardedHandOversReachOnlyTheLocksMasterAndReplica() throws Exception {
		String key = "lock:sharded:traffic";
		List<NodeTraffic> traffic = measure(key, true);
		NodeTraffic.print("sharded", traffic);
		RedisServerProcess master = cluster.masterOf(key);
		for (NodeTraffic node : traffic) {
			if (node.node() == master) {
				assertThat(node.spublish()).as("SPUBLISH on the lock's master").isEqualTo(HAND_OVERS);
			}
			else if (node.isReplicaOf(master)) {
				assertThat(node.publishShardReceived()).as("shard message to the master's replica")
					.isEqualTo(HAND_OVERS);
			}
			else {
				assertThat(node.total()).as("hand-over traffic on %s", node).isZero();
			}
			assertThat(node.publish() + node.publishReceived()).as("classic publish on %s", node).isZero();
		}
	}

	@Test
	void classicHandOversReachEveryNode() throws Exception {
		String key = "lock:classic:traffic";
		List<NodeTraffic> traffic = measure(key, false);
		NodeTraffic.print("classic", traffic);
		RedisServerProcess master = cluster.masterOf(key);
		for (NodeTraffic node : traffic) {
			if (node.node() != master) {
				assertThat(node.publishReceived()).as("broadcast to %s", node).isGreaterThanOrEqualTo(HAND_OVERS);
			}
		}
	}

	/**
	 * Runs the hand-overs between two clients, each woken by message, and returns each
	 * node's traffic.
	 */
	private List<NodeTraffic> measure(String key, boolean sharded) throws Exception {
		try (ClusterLockSide first = new ClusterLockSide(cluster, sharded);
				ClusterLockSide second = new ClusterLockSide(cluster, sharded)) {
			ClusterLockSide[] sides = { first, second };
			LockHandle held = first.client.lock(key);
			List<NodeTraffic> before = NodeTraffic.read(cluster);
			for (int i = 0; i < HAND_OVERS; i++) {
				ClusterLockSide next = sides[(i + 1) % 2];
				CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(
						() -> next.client.lock(key, next.client.defaultOptions().withWaitTime(Duration.ofSeconds(20))));
				await().atMost(Duration.ofSeconds(10)).until(() -> queued(next, key) == 1);
				held.close();
				held = waiting.get();
			}
			List<NodeTraffic> after = NodeTraffic.read(cluster);
			held.close();
			assertThat(first.waiter().handOvers() + second.waiter().handOvers()).as("hand-overs by message")
				.isEqualTo(HAND_OVERS);
			return NodeTraffic.delta(before, after);
		}
	}

	static long queued(ClusterLockSide side, String key) {
		Long length = side.redis.opsForList().size(ClusterLockSide.KEYSPACE.queueKey(key));
		return (length != null) ? length : 0;
	}

	static long subscribers(RedisServerProcess master, String channel) {
		List<?> reply = (List<?>) RedisAdminCommands.call(master, "PUBSUB", "SHARDNUMSUB", channel);
		return (Long) reply.get(1);
	}

}
