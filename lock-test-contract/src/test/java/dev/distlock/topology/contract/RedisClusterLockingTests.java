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

package dev.distlock.topology.contract;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locks on a Redis Cluster of 3 masters and 3 replicas, through the lock client Spring
 * Boot auto-configures from {@code spring.data.redis.cluster.nodes} alone: the lock
 * contract with release messages and with backoff, with and without locks passed between
 * an instance's threads, the reactive contract, and annotated methods of two instances;
 * and that the lock is kept there, not on any other Redis. One cluster serves every
 * nested class.
 */
class RedisClusterLockingTests {

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	static List<String> connection() {
		return List.of("spring.data.redis.cluster.nodes=" + cluster.clusterNodes());
	}

	@Test
	void lockIsKeptOnTheMasterOfItsSlot() {
		try (ConfigurableApplicationContext application = LockApplications.start(connection())) {
			LockClient client = application.getBean(LockClient.class);
			String key = "test:where:" + UUID.randomUUID();
			try (LockHandle held = client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(30)))) {
				assertThat(RedisAdminCommands.call(cluster.masterOf(held.key()), "EXISTS", held.key())).isEqualTo(1L);
			}
		}
	}

	@Nested
	class HandOverContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[0];
		}

	}

	@Nested
	class NoLocalPassingContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[] { "distlock.waiting.max-local-passes=0" };
		}

	}

	@Nested
	class BackoffContract extends AbstractBootContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		String[] settings() {
			return new String[] { "distlock.waiting.pub-sub=false" };
		}

	}

	@Nested
	class ReactiveHandOverContract extends AbstractBootReactiveContractTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

		@Override
		boolean cluster() {
			return true;
		}

	}

	@Nested
	class TwoAnnotatedInstances extends AbstractTwoInstanceLockingTests {

		@Override
		List<String> connection() {
			return RedisClusterLockingTests.connection();
		}

	}

}
