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

import java.util.ArrayList;
import java.util.List;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * The publish traffic of one cluster node: {@code PUBLISH} and {@code SPUBLISH} calls
 * ({@code INFO commandstats}, scripts' calls included) and publish messages received over
 * the cluster bus ({@code CLUSTER INFO}), read before and after hand-overs.
 *
 * @param node the node
 * @param masterPort the port of its master, or 0 if it is a master
 * @param publish {@code PUBLISH} calls
 * @param spublish {@code SPUBLISH} calls
 * @param publishReceived {@code cluster_stats_messages_publish_received}
 * @param publishShardReceived {@code cluster_stats_messages_publishshard_received}
 */
record NodeTraffic(RedisServerProcess node, long masterPort, long publish, long spublish, long publishReceived,
		long publishShardReceived) {

	static List<NodeTraffic> read(RedisClusterDeployment cluster) {
		List<NodeTraffic> traffic = new ArrayList<>();
		for (RedisServerProcess node : cluster.nodes()) {
			String stats = RedisAdminCommands.text(node, "INFO", "commandstats");
			String bus = RedisAdminCommands.text(node, "CLUSTER", "INFO");
			String replication = RedisAdminCommands.text(node, "INFO", "replication");
			traffic.add(new NodeTraffic(node, field(replication, "master_port:"), calls(stats, "cmdstat_publish:"),
					calls(stats, "cmdstat_spublish:"), field(bus, "cluster_stats_messages_publish_received:"),
					field(bus, "cluster_stats_messages_publishshard_received:")));
		}
		return traffic;
	}

	static List<NodeTraffic> delta(List<NodeTraffic> before, List<NodeTraffic> after) {
		List<NodeTraffic> delta = new ArrayList<>();
		for (int i = 0; i < after.size(); i++) {
			NodeTraffic a = after.get(i);
			NodeTraffic b = before.get(i);
			delta.add(new NodeTraffic(a.node, a.masterPort, a.publish - b.publish, a.spublish - b.spublish,
					a.publishReceived - b.publishReceived, a.publishShardReceived - b.publishShardReceived));
		}
		return delta;
	}

	static void print(String title, List<NodeTraffic> traffic) {
		System.out.println("Hand-over traffic per node (" + title + "): port role publish spublish "
				+ "bus_publish_received bus_publishshard_received");
		traffic.forEach((node) -> System.out.println("  " + node));
	}

	/**
	 * Returns how often a server has run a command, scripts' calls included.
	 * @param node the server
	 * @param command the command, in lower case
	 * @return the calls since the server started, 0 if none
	 */
	static long commandCalls(RedisServerProcess node, String command) {
		return calls(RedisAdminCommands.text(node, "INFO", "commandstats"), "cmdstat_" + command + ":");
	}

	boolean isReplicaOf(RedisServerProcess master) {
		return this.masterPort == master.port();
	}

	long total() {
		return this.publish + this.spublish + this.publishReceived + this.publishShardReceived;
	}

	private static long calls(String stats, String command) {
		return stats.lines()
			.filter((line) -> line.startsWith(command))
			.mapToLong((line) -> Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1")))
			.sum();
	}

	private static long field(String text, String name) {
		return text.lines()
			.filter((line) -> line.startsWith(name))
			.mapToLong((line) -> Long.parseLong(line.substring(name.length()).trim()))
			.sum();
	}

	@Override
	public String toString() {
		return this.node.port() + " " + ((this.masterPort == 0) ? "master" : "replica-of-" + this.masterPort) + " "
				+ this.publish + " " + this.spublish + " " + this.publishReceived + " " + this.publishShardReceived;
	}

}
