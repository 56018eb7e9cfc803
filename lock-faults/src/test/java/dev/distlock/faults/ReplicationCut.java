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

package dev.distlock.faults;

import java.time.Duration;

import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

import static org.awaitility.Awaitility.await;

/**
 * Makes a replica stale for real: it is disconnected from its master and kept from
 * syncing again by a wrong {@code masterauth}, so the master's next writes never reach
 * it. Works for Sentinel-managed and Redis Cluster replicas alike: both replicate over
 * the ordinary replication link, which {@code masterauth} guards.
 */
final class ReplicationCut {

	private ReplicationCut() {
	}

	/**
	 * Cuts the replication from a master to its replicas and waits until each reports its
	 * link down.
	 * @param master the master
	 * @param replicas its replicas
	 */
	static void cut(RedisServerProcess master, RedisServerProcess... replicas) {
		for (RedisServerProcess replica : replicas) {
			RedisAdminCommands.call(replica, "CONFIG", "SET", "masterauth", "wrong");
		}
		RedisAdminCommands.call(master, "CLIENT", "KILL", "TYPE", "replica");
		for (RedisServerProcess replica : replicas) {
			await().atMost(Duration.ofSeconds(5))
				.until(() -> RedisAdminCommands.text(replica, "INFO", "replication")
					.contains("master_link_status:down"));
		}
	}

	/**
	 * Finds the live replica of a master among the given nodes.
	 * @param master the master
	 * @param nodes the nodes to look at
	 * @return the replica
	 */
	static RedisServerProcess replicaOf(RedisServerProcess master, Iterable<RedisServerProcess> nodes) {
		for (RedisServerProcess node : nodes) {
			if (node.isRunning() && node != master && RedisAdminCommands.text(node, "INFO", "replication")
				.contains("master_port:" + master.port() + "\r")) {
				return node;
			}
		}
		throw new IllegalStateException("No live replica of " + master.port());
	}

}
