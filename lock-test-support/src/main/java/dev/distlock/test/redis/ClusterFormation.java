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

package dev.distlock.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Forms a Redis Cluster from freshly started, empty {@code cluster-enabled} nodes, as
 * {@code redis-cli --cluster create} does but without needing {@code redis-cli}: it
 * spreads the 16384 slots evenly over the masters, gives every node its own config epoch,
 * makes the nodes meet, attaches the replicas to their masters, and waits until every
 * node reports the cluster OK and every replica is in sync.
 */
final class ClusterFormation {

	/** The number of hash slots of a Redis Cluster. */
	static final int SLOTS = 16384;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private ClusterFormation() {
	}

	/**
	 * Forms the cluster.
	 * @param masters the nodes that get the slots
	 * @param replicas the other nodes, attached round robin to the masters
	 */
	static void form(List<RedisServerProcess> masters, List<RedisServerProcess> replicas) {
		List<RedisServerProcess> all = new ArrayList<>(masters);
		all.addAll(replicas);
		for (int i = 0; i < masters.size(); i++) {
			assignSlots(masters.get(i), i * SLOTS / masters.size(), (i + 1) * SLOTS / masters.size() - 1);
		}
		for (int i = 0; i < all.size(); i++) {
			RedisAdminCommands.call(all.get(i), "CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1));
		}
		for (RedisServerProcess node : all.subList(1, all.size())) {
			RedisAdminCommands.call(all.get(0), "CLUSTER", "MEET", node.host(), String.valueOf(node.port()),
					busPort(node));
		}
		for (RedisServerProcess node : all) {
			Polling.awaitTrue(node + " to know all " + all.size() + " nodes", TIMEOUT,
					() -> knownNodes(node) == all.size());
		}
		for (int i = 0; i < replicas.size(); i++) {
			String masterId = RedisAdminCommands.text(masters.get(i % masters.size()), "CLUSTER", "MYID");
			RedisAdminCommands.call(replicas.get(i), "CLUSTER", "REPLICATE", masterId);
		}
		for (RedisServerProcess node : all) {
			Polling.awaitTrue(node + " to report the cluster OK", TIMEOUT, () -> isClusterOk(node));
		}
		for (RedisServerProcess replica : replicas) {
			Polling.awaitTrue(replica + " to be in sync with its master", TIMEOUT,
					() -> RedisAdminCommands.text(replica, "INFO", "replication").contains("master_link_status:up"));
		}
	}

	/**
	 * Whether a node serves requests: it sees every slot served and no node failing.
	 * @param node the node to ask
	 * @return whether its {@code cluster_state} is {@code ok}
	 */
	static boolean isClusterOk(RedisTestServer node) {
		return RedisAdminCommands.text(node, "CLUSTER", "INFO").contains("cluster_state:ok");
	}

	private static String busPort(RedisServerProcess node) {
		return (String) ((List<?>) RedisAdminCommands.call(node, "CONFIG", "GET", "cluster-port")).get(1);
	}

	private static void assignSlots(RedisServerProcess master, int first, int last) {
		List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
		for (int slot = first; slot <= last; slot++) {
			command.add(String.valueOf(slot));
		}
		RedisAdminCommands.call(master, command.toArray(String[]::new));
	}

	private static long knownNodes(RedisServerProcess node) {
		return RedisAdminCommands.text(node, "CLUSTER", "NODES")
			.lines()
			.filter((line) -> !line.isBlank() && !line.contains("handshake"))
			.count();
	}

}
