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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.distlock.test.redis.RedisServerProcess;

/**
 * Counts scenario 2's commands on every node of a cluster, block by block: gives the
 * masters' sum to the contended table, and keeps each contender's figures per node for a
 * table of its own, which shows where the scripts ran and which nodes saw the release
 * messages: {@code PUBLISH} runs on one node and reaches every other one over the cluster
 * bus, {@code SPUBLISH} stays within the channel's shard.
 */
final class ClusterTraffic implements BlockCommands {

	private final List<ClusterNode> nodes = new ArrayList<>();

	private final Map<String, List<Map<String, Long>>> byContender = new LinkedHashMap<>();

	private List<Map<String, Long>> before = List.of();

	ClusterTraffic(List<RedisServerProcess> servers) {
		servers.forEach((server) -> this.nodes.add(ClusterNode.of(server)));
	}

	@Override
	public void before() {
		this.before = counters();
	}

	@Override
	public Map<String, Long> after(String contender) {
		List<Map<String, Long>> after = counters();
		List<Map<String, Long>> totals = this.byContender.computeIfAbsent(contender, (name) -> newTotals());
		Map<String, Long> masters = new TreeMap<>();
		for (int i = 0; i < this.nodes.size(); i++) {
			Map<String, Long> total = totals.get(i);
			boolean master = this.nodes.get(i).master();
			delta(this.before.get(i), after.get(i)).forEach((name, count) -> {
				total.merge(name, count, Long::sum);
				if (master && !name.startsWith("(bus)")) {
					masters.merge(name, count, Long::sum);
				}
			});
		}
		return masters;
	}

	/**
	 * Renders what each node executed and received in the measured blocks.
	 * @param results the contended results, for the holds
	 * @return the table
	 */
	String table(List<HandOverStats> results) {
		MarkdownTable table = new MarkdownTable("contender", "node", "role", "commands", "commands/hold", "scripts",
				"publish", "spublish", "bus publish received", "bus publishshard received");
		for (HandOverStats stats : results) {
			List<Map<String, Long>> totals = this.byContender.getOrDefault(stats.contender(), newTotals());
			for (int i = 0; i < this.nodes.size(); i++) {
				ClusterNode node = this.nodes.get(i);
				Map<String, Long> counts = totals.get(i);
				long commands = counts.entrySet()
					.stream()
					.filter((entry) -> !entry.getKey().startsWith("(bus)"))
					.mapToLong(Map.Entry::getValue)
					.sum();
				long scripts = counts.getOrDefault("evalsha", 0L) + counts.getOrDefault("eval", 0L)
						+ counts.getOrDefault("evalsha_ro", 0L) + counts.getOrDefault("eval_ro", 0L);
				table.row(stats.contender(), node.address(), node.role(), commands,
						MarkdownTable.number((double) commands / Math.max(1, stats.holds()), 2), scripts,
						counts.getOrDefault("publish", 0L), counts.getOrDefault("spublish", 0L),
						counts.get(ClusterNode.BUS_PUBLISH), counts.get(ClusterNode.BUS_PUBLISH_SHARD));
			}
		}
		return table.render();
	}

	private List<Map<String, Long>> newTotals() {
		List<Map<String, Long>> totals = new ArrayList<>();
		this.nodes.forEach((node) -> totals
			.add(new TreeMap<>(Map.of(ClusterNode.BUS_PUBLISH, 0L, ClusterNode.BUS_PUBLISH_SHARD, 0L))));
		return totals;
	}

	private List<Map<String, Long>> counters() {
		return this.nodes.stream().map(ClusterNode::counters).toList();
	}

	/**
	 * The change of one node's counters, without the harness's own {@code INFO},
	 * {@code CLUSTER INFO} and the clients' topology reads ({@code CLUSTER NODES},
	 * {@code CLUSTER SLOTS}, ...).
	 */
	private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
		Map<String, Long> delta = new TreeMap<>();
		after.forEach((name, count) -> {
			long change = count - before.getOrDefault(name, 0L);
			if (change > 0 && !name.equals("info") && !name.startsWith("cluster|")) {
				delta.put(name, change);
			}
		});
		return delta;
	}

}
