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
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;

/**
 * Runs scenarios 1 and 2 on a local Redis Cluster:
 * {@code ./bench/run cluster [uncontended|contended] [smoke]}. Starts a
 * {@link RedisClusterDeployment} (3 masters, 3 replicas) and points every process of the
 * run at all its nodes: distlock through its auto-configuration on Spring Boot's cluster
 * connection factory, Redisson with {@code useClusterServers()}, Spring Integration's
 * registries on the same connection factory. Scenario 2 also reports each node's commands
 * and pub/sub traffic ({@link ClusterTraffic}).
 */
final class ClusterBench {

	static final List<String> SCENARIOS = List.of("uncontended", "contended");

	private ClusterBench() {
	}

	/**
	 * Runs the scenarios named by the arguments, both if none is named.
	 * @param args {@code uncontended} or {@code contended}, and {@code smoke} for the
	 * tiny size
	 * @throws Exception on failure
	 */
	static void run(List<String> args) throws Exception {
		List<String> arguments = new ArrayList<>(args);
		BenchSizes sizes = arguments.remove("smoke") ? BenchSizes.smoke() : BenchSizes.full();
		if (!SCENARIOS.containsAll(arguments) || arguments.size() > 1) {
			System.err.println("Usage: bench/run cluster [" + String.join("|", SCENARIOS) + "] [smoke]");
			System.exit(2);
		}
		List<String> scenarios = arguments.isEmpty() ? SCENARIOS : arguments;
		System.err.println("Starting a Redis Cluster (3 masters + 3 replicas) ...");
		try (RedisClusterDeployment cluster = RedisClusterDeployment.start()) {
			run(cluster, sizes, scenarios, true);
		}
		System.exit(0);
	}

	static BenchReport run(RedisClusterDeployment cluster, BenchSizes sizes, List<String> scenarios, boolean print)
			throws Exception {
		long start = System.nanoTime();
		BenchReport report = new BenchReport();
		RedisTarget target = RedisTarget.cluster(cluster.clusterNodes());
		try (ContenderSet set = new ContenderSet(target, new HashSet<>(ContenderSet.ids(target)), false)) {
			requireClusterConnection(set);
			String version = RedisAdminCommands.text(cluster.nodes().get(0), "INFO", "server")
				.lines()
				.filter((line) -> line.startsWith("redis_version:"))
				.map((line) -> line.substring("redis_version:".length()).trim())
				.findFirst()
				.orElse("?");
			report.environment = BenchEnvironment.describe(version + ", cluster of " + cluster.nodes().size()
					+ " nodes (3 masters + 3 replicas) on loopback, cluster-node-timeout 1000 ms, no persistence");
			BenchMain.emit(print, "## Environment\n\n" + report.environment + "\n" + contenderNotes(set.leftOut()));
			if (scenarios.contains("uncontended")) {
				report.uncontended = BenchMain.uncontended(set, new ClusterTraffic(cluster.nodes()), null, sizes,
						print);
			}
			if (scenarios.contains("contended")) {
				ClusterTraffic traffic = new ClusterTraffic(cluster.nodes());
				report.contended = BenchMain.contended(target, set, traffic, sizes, print);
				BenchMain.emit(print, "Commands and pub/sub per node in the measured blocks (the table above counts "
						+ "the masters; replicas repeat the masters' writes; INFO and CLUSTER commands left out; "
						+ "bus messages still in flight when a block ends are counted in no block):\n\n"
						+ traffic.table(report.contended));
			}
		}
		BenchMain.emit(print, "Run took " + Math.round((System.nanoTime() - start) / 1e9)
				+ " s; load average at the end: " + BenchEnvironment.loadAverage());
		return report;
	}

	/**
	 * Fails unless Boot's connection factory, which distlock's auto-configuration and
	 * Spring Integration use, talks to the cluster: distlock then groups its keys by
	 * slot.
	 */
	private static void requireClusterConnection(ContenderSet set) {
		RedisConnectionFactory connectionFactory = set.redis().getRequiredConnectionFactory();
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce) || !lettuce.isClusterAware()) {
			throw new IllegalStateException("Expected a cluster-aware Lettuce connection factory from "
					+ "spring.data.redis.cluster.nodes, got " + connectionFactory);
		}
	}

	private static String contenderNotes(List<String> leftOut) {
		String notes = "On the cluster: distlock auto-configured on Boot's cluster Lettuce connection factory "
				+ "(spring.data.redis.cluster.nodes, so cluster slots on); Redisson useClusterServers() with every "
				+ "node; Spring Integration's registries on the same connection factory; the blog lock included "
				+ "(its SET NX PX and compare-and-delete script touch one key, which a cluster serves); the floor is "
				+ "2×EXISTS of the key on the key's master, since a cluster connection's PING goes to every node.\n";
		return notes + leftOut.stream()
			.map((reason) -> reason + (reason.endsWith(".") ? "\n" : ".\n"))
			.collect(Collectors.joining());
	}

}
