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

package dev.distlock.benchmarks;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * One node of the benchmark's cluster and its counters, read over a connection of its own
 * ({@link RedisAdminCommands}) since Spring Data Redis merges a cluster's {@code INFO}
 * into one set of prefixed properties: calls per command from {@code INFO commandstats},
 * and the pub/sub messages the node received from the other nodes over the cluster bus
 * from {@code CLUSTER INFO} ({@code cluster_stats_messages_publish_received} for
 * {@code PUBLISH}, which a cluster forwards to every node, and
 * {@code cluster_stats_messages_publishshard_received} for {@code SPUBLISH}, which goes
 * to the nodes of the channel's shard only).
 *
 * @param server the node
 * @param role {@code master} or {@code replica}, as the node said when the run started
 * ({@code INFO replication} calls a replica {@code slave})
 */
record ClusterNode(RedisServerProcess server, String role) {

	/** Counter name of the bus's {@code PUBLISH} messages received. */
	static final String BUS_PUBLISH = "(bus) publish received";

	/** Counter name of the bus's {@code SPUBLISH} messages received. */
	static final String BUS_PUBLISH_SHARD = "(bus) publishshard received";

	static ClusterNode of(RedisServerProcess server) {
		String replication = RedisAdminCommands.text(server, "INFO", "replication");
		String role = field(replication, "role").orElse("?");
		return new ClusterNode(server, role.equals("slave") ? "replica" : role);
	}

	boolean master() {
		return this.role.equals("master");
	}

	String address() {
		return this.server.host() + ":" + this.server.port();
	}

	/**
	 * Reads the node's counters now.
	 * @return calls by command name, and {@link #BUS_PUBLISH} and
	 * {@link #BUS_PUBLISH_SHARD}
	 */
	Map<String, Long> counters() {
		Map<String, Long> counters = new TreeMap<>();
		RedisAdminCommands.text(this.server, "INFO", "commandstats").lines().forEach((line) -> {
			if (line.startsWith("cmdstat_")) {
				int start = line.indexOf("calls=") + "calls=".length();
				counters.put(line.substring("cmdstat_".length(), line.indexOf(':')),
						Long.parseLong(line.substring(start, line.indexOf(',', start))));
			}
		});
		String clusterInfo = RedisAdminCommands.text(this.server, "CLUSTER", "INFO");
		// CLUSTER INFO leaves out the message types a node never received.
		counters.put(BUS_PUBLISH,
				field(clusterInfo, "cluster_stats_messages_publish_received").map(Long::parseLong).orElse(0L));
		counters.put(BUS_PUBLISH_SHARD,
				field(clusterInfo, "cluster_stats_messages_publishshard_received").map(Long::parseLong).orElse(0L));
		return counters;
	}

	private static Optional<String> field(String info, String name) {
		return info.lines()
			.filter((line) -> line.startsWith(name + ":"))
			.map((line) -> line.substring(name.length() + 1).trim())
			.findFirst();
	}

}
