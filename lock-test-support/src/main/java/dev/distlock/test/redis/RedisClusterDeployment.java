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
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.test.util.TestSocketUtils;

/**
 * A real Redis Cluster (Redis 7.0 or later) of {@code redis-server} processes on free
 * loopback ports, formed by {@link ClusterFormation}: by default 3 masters with one
 * replica each. Nodes time out after one second ({@code cluster-node-timeout 1000}), so a
 * killed master's replica is promoted within a few seconds, and any replica may be
 * promoted however stale. A killed node stays down. <pre class="code">
 * try (RedisClusterDeployment cluster = RedisClusterDeployment.start()) {
 *     properties.put("spring.data.redis.cluster.nodes", cluster.clusterNodes());
 *     RedisServerProcess master = cluster.masterOf("lock:sku:1");
 *     cluster.kill(master);
 *     RedisServerProcess promoted = cluster.awaitPromotion("lock:sku:1", Duration.ofSeconds(10));
 * }
 * </pre>
 */
public final class RedisClusterDeployment implements AutoCloseable {

	private static final List<String> NODE_CONFIGURATION = List.of("--cluster-enabled", "yes", "--cluster-config-file",
			"nodes.conf", "--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0",
			// DEBUG SLEEP lets a test make a node unresponsive while it stays connected.
			"--enable-debug-command", "local");

	private final List<RedisServerProcess> nodes;

	private RedisClusterDeployment(List<RedisServerProcess> nodes) {
		this.nodes = List.copyOf(nodes);
	}

	/**
	 * Starts a cluster of 3 masters and 3 replicas and waits until it serves every slot.
	 * @return the running cluster
	 */
	public static RedisClusterDeployment start() {
		return start(3, 1);
	}

	/**
	 * Starts a cluster and waits until it serves every slot.
	 * @param masters the number of masters, over which the slots are spread evenly
	 * @param replicasPerMaster the number of replicas of each master
	 * @return the running cluster
	 */
	public static RedisClusterDeployment start(int masters, int replicasPerMaster) {
		List<RedisServerProcess> started = new ArrayList<>();
		try {
			for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
				started.add(startNode());
			}
			ClusterFormation.form(started.subList(0, masters), started.subList(masters, started.size()));
			return new RedisClusterDeployment(started);
		}
		catch (RuntimeException ex) {
			started.forEach(RedisServerProcess::close);
			throw ex;
		}
	}

	/**
	 * Starts one empty node. Its cluster bus gets a free port of its own
	 * ({@code cluster-port}, Redis 7.0+), since the default, 10000 above the client port,
	 * may be taken or out of range.
	 */
	private static RedisServerProcess startNode() {
		List<String> configuration = new ArrayList<>(NODE_CONFIGURATION);
		configuration.addAll(List.of("--cluster-port", String.valueOf(TestSocketUtils.findAvailableTcpPort())));
		return RedisServerProcess.startOnFreePort(configuration.toArray(String[]::new));
	}

	/**
	 * Returns every node, killed ones included: the first ones started as masters.
	 * @return the nodes
	 */
	public List<RedisServerProcess> nodes() {
		return this.nodes;
	}

	/**
	 * Returns the addresses of all nodes, for {@code spring.data.redis.cluster.nodes}.
	 * @return {@code host:port} of every node, comma-separated
	 */
	public String clusterNodes() {
		return this.nodes.stream().map((node) -> node.host() + ":" + node.port()).collect(Collectors.joining(","));
	}

	/**
	 * Returns the master that serves a key's slot, as a live node sees it.
	 * @param key the key
	 * @return the master
	 * @throws IllegalStateException if no live node names a live master for the slot
	 */
	public RedisServerProcess masterOf(String key) {
		RedisServerProcess master = findMaster(slotOf(key));
		if (master == null) {
			throw new IllegalStateException("No live master serves the slot of '" + key + "'");
		}
		return master;
	}

	/**
	 * Returns the live replicas of a master, as each replica reports its master's port.
	 * @param master the master
	 * @return its replicas; empty if it has none
	 */
	public List<RedisServerProcess> replicasOf(RedisServerProcess master) {
		String masterPort = "master_port:" + master.port();
		return liveNodes().stream()
			.filter((node) -> node != master)
			.filter((node) -> RedisAdminCommands.text(node, "INFO", "replication").lines().anyMatch(masterPort::equals))
			.toList();
	}

	/**
	 * Returns the hash slot of a key, as a live node computes it.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	public int slotOf(String key) {
		return ((Long) RedisAdminCommands.call(anyLiveNode(), "CLUSTER", "KEYSLOT", key)).intValue();
	}

	/**
	 * Kills a node at once ({@code SIGKILL}), as a crash would: writes it had not yet
	 * sent to its replicas are lost. It stays down.
	 * @param node the node
	 */
	public void kill(RedisServerProcess node) {
		node.crash();
	}

	/**
	 * Waits until a live master other than the killed one serves a key's slot and every
	 * live node reports the cluster OK: the replica's promotion is complete.
	 * @param key the key whose slot's master was killed
	 * @param timeout how long to wait
	 * @return the promoted master
	 * @throws IllegalStateException if that does not happen in time
	 */
	public RedisServerProcess awaitPromotion(String key, Duration timeout) {
		int slot = slotOf(key);
		return Polling.await("a promoted master for slot " + slot, timeout, () -> {
			RedisServerProcess master = findMaster(slot);
			boolean ok = liveNodes().stream().allMatch(ClusterFormation::isClusterOk);
			return (ok && master != null && "master".equals(role(master))) ? master : null;
		});
	}

	/**
	 * Returns whether the killed node's slot is currently unserved, as every live node
	 * sees it: each reports {@code cluster_state:fail}.
	 * @return whether the cluster refuses requests
	 */
	public boolean isDown() {
		return liveNodes().stream().noneMatch(ClusterFormation::isClusterOk);
	}

	private @Nullable RedisServerProcess findMaster(int slot) {
		for (Object range : (List<?>) RedisAdminCommands.call(anyLiveNode(), "CLUSTER", "SLOTS")) {
			List<?> fields = (List<?>) range;
			if ((Long) fields.get(0) <= slot && slot <= (Long) fields.get(1)) {
				long port = (Long) ((List<?>) fields.get(2)).get(1);
				return liveNodes().stream().filter((node) -> node.port() == port).findFirst().orElse(null);
			}
		}
		return null;
	}

	private static String role(RedisServerProcess node) {
		String replication = RedisAdminCommands.text(node, "INFO", "replication");
		return replication.lines().filter((line) -> line.startsWith("role:")).findFirst().orElse("").substring(5);
	}

	private List<RedisServerProcess> liveNodes() {
		return this.nodes.stream().filter(RedisServerProcess::isRunning).toList();
	}

	private RedisServerProcess anyLiveNode() {
		return liveNodes().stream().findFirst().orElseThrow(() -> new IllegalStateException("Every node is down"));
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServerProcess::close);
	}

	@Override
	public String toString() {
		return "RedisClusterDeployment[" + clusterNodes() + "]";
	}

}
