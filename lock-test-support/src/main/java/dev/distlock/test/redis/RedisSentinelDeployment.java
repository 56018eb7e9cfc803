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
import java.util.stream.Stream;

/**
 * A real Redis master with replicas, monitored by Sentinels, all {@code redis-server}
 * processes on free loopback ports: by default 1 master, 2 replicas and 3 Sentinels with
 * a quorum of 2, under the master name {@value #MASTER_NAME}. Sentinels consider a master
 * down after one second, so a killed master's replica is promoted within a few seconds. A
 * killed node stays down. <pre class="code">
 * try (RedisSentinelDeployment sentinel = RedisSentinelDeployment.start()) {
 *     properties.put("spring.data.redis.sentinel.master", sentinel.masterName());
 *     properties.put("spring.data.redis.sentinel.nodes", sentinel.sentinelNodes());
 *     sentinel.kill(sentinel.master());
 *     RedisServerProcess promoted = sentinel.awaitPromotion(Duration.ofSeconds(15));
 * }
 * </pre>
 */
public final class RedisSentinelDeployment implements AutoCloseable {

	/** The name under which the Sentinels monitor the master. */
	public static final String MASTER_NAME = "distlock";

	private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServerProcess> servers;

	private final List<RedisServerProcess> sentinels;

	private RedisSentinelDeployment(List<RedisServerProcess> servers, List<RedisServerProcess> sentinels) {
		this.servers = List.copyOf(servers);
		this.sentinels = List.copyOf(sentinels);
	}

	/**
	 * Starts 1 master, 2 replicas and 3 Sentinels, and waits until the replicas are in
	 * sync and every Sentinel knows both of them.
	 * @return the running deployment
	 */
	public static RedisSentinelDeployment start() {
		List<RedisServerProcess> started = new ArrayList<>();
		try {
			RedisServerProcess master = RedisServerProcess.startOnFreePort();
			started.add(master);
			List<RedisServerProcess> servers = new ArrayList<>(List.of(master));
			for (int i = 0; i < 2; i++) {
				RedisServerProcess replica = RedisServerProcess.startOnFreePort("--replicaof", master.host(),
						String.valueOf(master.port()));
				started.add(replica);
				servers.add(replica);
				Polling.awaitTrue(replica + " to be in sync", SYNC_TIMEOUT,
						() -> RedisAdminCommands.text(replica, "INFO", "replication")
							.contains("master_link_status:up"));
			}
			String configuration = "sentinel monitor " + MASTER_NAME + " " + master.host() + " " + master.port()
					+ " 2\nsentinel down-after-milliseconds " + MASTER_NAME + " 1000\nsentinel failover-timeout "
					+ MASTER_NAME + " 5000\n";
			List<RedisServerProcess> sentinels = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				RedisServerProcess sentinel = RedisServerProcess.startSentinelOnFreePort(configuration);
				started.add(sentinel);
				sentinels.add(sentinel);
			}
			for (RedisServerProcess sentinel : sentinels) {
				Polling.awaitTrue(sentinel + " to know the replicas and the other Sentinels", SYNC_TIMEOUT,
						() -> knowsEveryone(sentinel));
			}
			return new RedisSentinelDeployment(servers, sentinels);
		}
		catch (RuntimeException ex) {
			started.forEach(RedisServerProcess::close);
			throw ex;
		}
	}

	/**
	 * Returns the name under which the Sentinels monitor the master, for
	 * {@code spring.data.redis.sentinel.master}.
	 * @return the master name
	 */
	public String masterName() {
		return MASTER_NAME;
	}

	/**
	 * Returns the addresses of the Sentinels, for
	 * {@code spring.data.redis.sentinel.nodes}.
	 * @return {@code host:port} of every Sentinel, comma-separated
	 */
	public String sentinelNodes() {
		return this.sentinels.stream().map((node) -> node.host() + ":" + node.port()).collect(Collectors.joining(","));
	}

	/**
	 * Returns the data nodes, killed ones included: the first started as the master.
	 * @return the master and the replicas
	 */
	public List<RedisServerProcess> servers() {
		return this.servers;
	}

	/**
	 * Returns the Sentinels.
	 * @return the Sentinels
	 */
	public List<RedisServerProcess> sentinels() {
		return this.sentinels;
	}

	/**
	 * Returns the live master that a live Sentinel names.
	 * @return the master
	 * @throws IllegalStateException if the Sentinel names a node that is down
	 */
	public RedisServerProcess master() {
		long port = namedMasterPort();
		return this.servers.stream()
			.filter((node) -> node.port() == port && node.isRunning())
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The Sentinels name a master that is down: port " + port));
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
	 * Waits until every live Sentinel names a live master that reports the master role:
	 * after a kill of the master, the promotion of a replica is complete.
	 * @param timeout how long to wait
	 * @return the master
	 * @throws IllegalStateException if that does not happen in time
	 */
	public RedisServerProcess awaitPromotion(Duration timeout) {
		return Polling.await("a promoted master", timeout, () -> {
			RedisServerProcess master = master();
			boolean agreed = liveSentinels().allMatch((sentinel) -> namedMasterPort(sentinel) == master.port());
			boolean role = RedisAdminCommands.text(master, "INFO", "replication").contains("role:master");
			return (agreed && role) ? master : null;
		});
	}

	/**
	 * Waits until the deployment is settled: every live Sentinel names the same live
	 * master, which reports the master role with both replicas connected and in sync.
	 * Call it before a fault, so that a fault meant for the master never hits a node that
	 * a Sentinel still names from an earlier failover.
	 * @param timeout how long to wait
	 * @return the master
	 */
	public RedisServerProcess awaitSettled(Duration timeout) {
		return Polling.await("a settled master with 2 replicas", timeout, () -> {
			RedisServerProcess master = awaitPromotion(timeout);
			String replication = RedisAdminCommands.text(master, "INFO", "replication");
			boolean replicasInSync = replication.contains("connected_slaves:2") && this.servers.stream()
				.filter((node) -> node != master && node.isRunning())
				.allMatch((node) -> RedisAdminCommands.text(node, "INFO", "replication")
					.contains("master_port:" + master.port()));
			return replicasInSync ? master : null;
		});
	}

	private long namedMasterPort() {
		return namedMasterPort(liveSentinels().findFirst().orElseThrow());
	}

	private static long namedMasterPort(RedisServerProcess sentinel) {
		List<?> address = (List<?>) RedisAdminCommands.call(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
				MASTER_NAME);
		return Long.parseLong((String) address.get(1));
	}

	private Stream<RedisServerProcess> liveSentinels() {
		return this.sentinels.stream().filter(RedisServerProcess::isRunning);
	}

	private static boolean knowsEveryone(RedisServerProcess sentinel) {
		String master = RedisAdminCommands.text(sentinel, "SENTINEL", "MASTER", MASTER_NAME);
		return master.contains("num-slaves, 2") && master.contains("num-other-sentinels, 2");
	}

	@Override
	public void close() {
		this.sentinels.forEach(RedisServerProcess::close);
		this.servers.forEach(RedisServerProcess::close);
	}

	@Override
	public String toString() {
		return "RedisSentinelDeployment[" + MASTER_NAME + " at " + sentinelNodes() + "]";
	}

}
