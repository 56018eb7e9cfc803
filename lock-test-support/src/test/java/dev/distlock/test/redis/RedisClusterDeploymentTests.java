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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisClusterDeployment}, against real processes. The failover comes
 * last: it changes the deployment.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterDeploymentTests {

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
	@Order(1)
	void servesEverySlotWithThreeMastersAndAReplicaEach() {
		assertThat(cluster.nodes()).hasSize(6);
		assertThat(cluster.clusterNodes().split(",")).hasSize(6).allMatch((node) -> node.startsWith("127.0.0.1:"));
		String info = RedisAdminCommands.text(cluster.nodes().get(0), "CLUSTER", "INFO");
		assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_known_nodes:6",
				"cluster_size:3");
		assertThat(cluster.nodes().subList(3, 6))
			.allMatch((replica) -> RedisAdminCommands.text(replica, "INFO", "replication").contains("role:slave"));
	}

	@Test
	@Order(2)
	void theMasterOfAKeyServesItAndOthersRedirect() {
		RedisServerProcess master = cluster.masterOf("deployment:a");
		assertThat(RedisAdminCommands.call(master, "SET", "deployment:a", "1")).isEqualTo("OK");
		RedisServerProcess other = cluster.nodes()
			.subList(0, 3)
			.stream()
			.filter((node) -> node != master)
			.findFirst()
			.orElseThrow();
		assertThatIllegalStateException().isThrownBy(() -> RedisAdminCommands.call(other, "GET", "deployment:a"))
			.withMessageStartingWith("MOVED " + cluster.slotOf("deployment:a"));
	}

	@Test
	@Order(3)
	void aKilledMastersReplicaIsPromotedAndServesTheKey() {
		RedisServerProcess master = cluster.masterOf("deployment:failover");
		RedisServerProcess replica = replicaOf(master);
		RedisAdminCommands.call(master, "SET", "deployment:failover", "before");
		// Acknowledged (WAIT) and applied: the replica holds as many keys as its master.
		Polling.awaitTrue("the write to reach the replica", Duration.ofSeconds(5),
				() -> RedisAdminCommands.text(master, "WAIT", "1", "100").equals("1")
						&& RedisAdminCommands.text(replica, "DBSIZE")
							.equals(RedisAdminCommands.text(master, "DBSIZE")));
		cluster.kill(master);
		RedisServerProcess promoted = cluster.awaitPromotion("deployment:failover", Duration.ofSeconds(20));
		assertThat(promoted).isNotSameAs(master);
		assertThat(cluster.masterOf("deployment:failover")).isSameAs(promoted);
		assertThat(RedisAdminCommands.call(promoted, "GET", "deployment:failover"))
			.as(() -> "the key on the promoted node :" + promoted.port() + " (the killed master's replica was :"
					+ replica.port() + "); its replication: "
					+ RedisAdminCommands.text(promoted, "INFO", "replication"))
			.isEqualTo("before");
		assertThat(cluster.isDown()).isFalse();
	}

	private static RedisServerProcess replicaOf(RedisServerProcess master) {
		return cluster.nodes()
			.stream()
			.filter((node) -> RedisAdminCommands.text(node, "INFO", "replication")
				.contains("master_port:" + master.port() + "\r\n"))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No replica follows the master :" + master.port()));
	}

}
