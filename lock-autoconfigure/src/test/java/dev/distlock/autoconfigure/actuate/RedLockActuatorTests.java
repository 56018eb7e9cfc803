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

package dev.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockEndpoint;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.actuate.RedLockEndpoint;
import dev.distlock.actuate.RedLockHealthIndicator;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redlock.RedLockHoldInfo;
import dev.distlock.redlock.RedLockNodeOutcomes;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * With {@code distlock.store=redlock} the {@code distlock} health indicator shows each
 * RedLock node, and is DOWN only when fewer than a majority answer; the endpoint, which
 * reads the Redis client's state, backs off, and the RedLock endpoint shows each node's
 * answers to acquisition attempts.
 */
class RedLockActuatorTests {

	/**
	 * Fresh servers that never granted a lock: their grants count at once, as with
	 * appendfsync always (the restart delay: RedLockAutoConfigurationTests).
	 */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class,
				DistributedLockEndpointAutoConfiguration.class,
				DistributedLockHealthContributorAutoConfiguration.class))
		.withPropertyValues("distlock.store=redlock", "management.endpoints.web.exposure.include=distlock",
				"distlock.redlock.appendfsync-always=true");

	@SuppressWarnings("unchecked")
	private static Map<String, String> nodeStatuses(Health health) {
		return (Map<String, String>) health.getDetails().get("nodes");
	}

	@Test
	void healthShowsEachNodeAndIsDownOnlyWithoutAMajority() {
		List<RedisServerProcess> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				servers.add(RedisServerProcess.startOnFreePort());
			}
			String nodes = String.join(",",
					servers.stream().map((server) -> "redis://" + server.host() + ":" + server.port()).toList());
			this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes).run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(RedLockHealthIndicator.class)
					.doesNotHaveBean(DistributedLockHealthIndicator.class)
					.doesNotHaveBean(DistributedLockEndpoint.class);
				RedLockHealthIndicator indicator = context.getBean(RedLockHealthIndicator.class);
				Health all = indicator.health();
				assertThat(all.getStatus()).isEqualTo(Status.UP);
				assertThat(all.getDetails()).containsEntry("answering", 3L)
					.containsEntry("majority", 2)
					.containsEntry("quarantined", List.of());
				servers.get(1).crash();
				Health minorityDown = indicator.health();
				assertThat(minorityDown.getStatus()).isEqualTo(Status.UP);
				assertThat(nodeStatuses(minorityDown))
					.containsEntry("distlock.redlock.nodes[1] (127.0.0.1:" + servers.get(1).port() + ")", "DOWN")
					.containsEntry("distlock.redlock.nodes[0] (127.0.0.1:" + servers.get(0).port() + ")", "UP");
				servers.get(2).crash();
				assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
			});
		}
		finally {
			servers.forEach(RedisServerProcess::close);
		}
	}

	@Test
	void endpointShowsEachNodesOutcomesWithACrashedNodeAsFailed() {
		List<RedisServerProcess> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				servers.add(RedisServerProcess.startOnFreePort());
			}
			String nodes = String.join(",",
					servers.stream().map((server) -> "redis://" + server.host() + ":" + server.port()).toList());
			this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes, "distlock.redlock.node-timeout=500ms")
				.run((context) -> {
					assertThat(context).hasNotFailed().hasSingleBean(RedLockEndpoint.class);
					LockClient client = context.getBean(LockClient.class);
					LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));
					client.lock("endpoint", options).release();
					servers.get(1).crash();
					client.lock("endpoint", options).release();
					// The attempt is decided by the two nodes that granted; the crashed
					// node's
					// failure is counted when its connection reports it, which may come
					// later.
					RedLockEndpoint endpoint = context.getBean(RedLockEndpoint.class);
					await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
						RedLockNodeOutcomes crashedNode = endpoint.state().nodes().get(1);
						assertThat(crashedNode.failed() + crashedNode.timedOut()).isEqualTo(1);
					});
					RedLockEndpoint.RedLockDescriptor descriptor = endpoint.state();
					assertThat(descriptor.majority()).isEqualTo(2);
					assertThat(descriptor.nodes()).extracting(RedLockNodeOutcomes::node)
						.containsExactly("distlock.redlock.nodes[0] (127.0.0.1:" + servers.get(0).port() + ")",
								"distlock.redlock.nodes[1] (127.0.0.1:" + servers.get(1).port() + ")",
								"distlock.redlock.nodes[2] (127.0.0.1:" + servers.get(2).port() + ")");
					assertThat(descriptor.nodes()).extracting(RedLockNodeOutcomes::granted).containsExactly(2L, 1L, 2L);
					RedLockNodeOutcomes crashed = descriptor.nodes().get(1);
					assertThat(crashed.failed() + crashed.timedOut()).isEqualTo(1);
					assertThat(crashed.refused()).isZero();
					assertThat(descriptor.locks()).as("locks held after the releases").isEmpty();
				});
		}
		finally {
			servers.forEach(RedisServerProcess::close);
		}
	}

	@Test
	void endpointListsTheLocksThisInstanceHoldsForThreadsAndReactiveWork() {
		List<RedisServerProcess> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 3; i++) {
				servers.add(RedisServerProcess.startOnFreePort());
			}
			String nodes = String.join(",",
					servers.stream().map((server) -> "redis://" + server.host() + ":" + server.port()).toList());
			this.runner.withPropertyValues("distlock.redlock.nodes=" + nodes, "distlock.key-prefix=app:")
				.run((context) -> {
					assertThat(context).hasNotFailed().hasSingleBean(RedLockEndpoint.class);
					RedLockEndpoint endpoint = context.getBean(RedLockEndpoint.class);
					LockClient client = context.getBean(LockClient.class);
					ReactiveLockClient reactive = context.getBean(ReactiveLockClient.class);
					LockHandle blocking = client.lock("orders:1",
							new LockOptions(Duration.ZERO, Duration.ofSeconds(20)).withName("orders"));
					servers.get(2).crash();
					ReactiveLockHandle work = reactive.lock("export", LockOptions.renewing(Duration.ZERO))
						.block(Duration.ofSeconds(10));
					List<RedLockHoldInfo> locks = endpoint.state().locks();
					assertThat(locks).extracting(RedLockHoldInfo::name, RedLockHoldInfo::key)
						.containsExactly(tuple("orders", "app:orders:1"), tuple(LockOptions.UNNAMED, "app:export"));
					String[] names = new String[3];
					for (int i = 0; i < 3; i++) {
						names[i] = "distlock.redlock.nodes[" + i + "] (127.0.0.1:" + servers.get(i).port() + ")";
					}
					RedLockHoldInfo orders = locks.get(0);
					assertThat(orders.fencingToken()).isEqualTo(blocking.fencingToken());
					assertThat(orders.autoRenewing()).isFalse();
					assertThat(orders.leaseLost()).isFalse();
					assertThat(orders.validityRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20));
					assertThat(orders.heldFor()).isPositive();
					assertThat(orders.acquiredAt()).isBeforeOrEqualTo(Instant.now());
					assertThat(orders.grantedBy()).hasSizeGreaterThanOrEqualTo(2).isSubsetOf(names);
					RedLockHoldInfo export = locks.get(1);
					assertThat(export.fencingToken()).isEqualTo(work.fencingToken());
					assertThat(export.autoRenewing()).isTrue();
					assertThat(export.grantedBy()).as("granted without the crashed node")
						.containsExactly(names[0], names[1]);
					blocking.release();
					work.release().block(Duration.ofSeconds(10));
					assertThat(endpoint.state().locks()).isEmpty();
				});
		}
		finally {
			servers.forEach(RedisServerProcess::close);
		}
	}

}
