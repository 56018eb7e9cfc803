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

/**
 * Tests for {@link RedisSentinelDeployment}, against real processes. The failover comes
 * last: it changes the deployment.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelDeploymentTests {

	private static RedisSentinelDeployment deployment;

	@BeforeAll
	static void startDeployment() {
		deployment = RedisSentinelDeployment.start();
	}

	@AfterAll
	static void stopDeployment() {
		deployment.close();
	}

	@Test
	@Order(1)
	void sentinelsNameTheFirstServerAsMasterOfTwoReplicas() {
		assertThat(deployment.sentinelNodes().split(",")).hasSize(3);
		assertThat(deployment.master()).isSameAs(deployment.servers().get(0));
		assertThat(RedisAdminCommands.text(deployment.master(), "INFO", "replication")).contains("connected_slaves:2");
		for (RedisServerProcess sentinel : deployment.sentinels()) {
			assertThat(RedisAdminCommands.call(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "distlock")).asList()
				.containsExactly("127.0.0.1", String.valueOf(deployment.master().port()));
		}
	}

	@Test
	@Order(2)
	void aKilledMasterIsReplacedByAReplicaWithItsData() {
		RedisServerProcess master = deployment.master();
		RedisAdminCommands.call(master, "SET", "deployment:failover", "before");
		assertThat(RedisAdminCommands.call(master, "WAIT", "2", "5000")).isEqualTo(2L);
		deployment.kill(master);
		RedisServerProcess promoted = deployment.awaitPromotion(Duration.ofSeconds(20));
		assertThat(promoted).isNotSameAs(master).isIn(deployment.servers());
		assertThat(RedisAdminCommands.call(promoted, "GET", "deployment:failover")).isEqualTo("before");
		assertThat(RedisAdminCommands.call(promoted, "SET", "deployment:after", "written")).isEqualTo("OK");
	}

}
