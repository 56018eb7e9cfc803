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

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * A client that never had a connection to a master when it failed locks a key of that
 * master's slots again within a few seconds of its replica's promotion. Lettuce refreshes
 * the topology on its own only for a connection it keeps failing to reconnect (or a
 * redirection, an unknown node, an uncovered slot); a connection it never had is refused
 * at once, no trigger fires, and without distlock's refresh on an unanswered lock command
 * the client kept the dead master in its view until something else refreshed it (Lettuce
 * 7.5: {@code ClusterTests.keyLocksAgainAfterItsMasterFailsOver} failed about every other
 * run, answering 503 for the whole 20 s). Prints the time from promotion to the lock.
 */
class ClusterTopologyRefreshTests {

	@Test
	void clientThatNeverConnectedToAKilledMasterLocksAgainSoonAfterThePromotion() {
		String key = "lock:refresh:failover";
		try (RedisClusterDeployment cluster = RedisClusterDeployment.start()) {
			RedisServerProcess master = cluster.masterOf(key);
			int slot = cluster.slotOf(key);
			// A client used and closed first, so that the one under test starts within
			// a fraction of a second of the kill even in a fresh JVM.
			LettuceConnectionFactory warmUp = connectionFactory(cluster);
			try (RedisLockClient client = startedClient(warmUp)) {
				assertThat(locksOnce(client, key)).isTrue();
			}
			finally {
				warmUp.destroy();
			}
			cluster.kill(master);
			// Started after the kill, so it never connects to the killed master; its
			// first view of the cluster is read before the replica is promoted.
			LettuceConnectionFactory connectionFactory = connectionFactory(cluster);
			try {
				RedisClusterNode viewed = ((RedisClusterClient) connectionFactory.getRequiredNativeClient())
					.getPartitions()
					.getMasterBySlot(slot);
				assertThat(viewed.getUri().getPort()).as("the master of slot %d in the client's first view", slot)
					.isEqualTo(master.port());
				RedisLockClient client = startedClient(connectionFactory);
				try {
					cluster.awaitPromotion(key, Duration.ofSeconds(20));
					long promoted = System.nanoTime();
					await().atMost(Duration.ofSeconds(5))
						.pollInterval(Duration.ofMillis(100))
						.ignoreExceptions()
						.until(() -> locksOnce(client, key));
					System.out.println("A client that never connected to the killed master locks again "
							+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promoted) + " ms after the promotion");
				}
				finally {
					client.close();
				}
			}
			finally {
				connectionFactory.destroy();
			}
		}
	}

	@Test
	void failureRecordedWhileTheConnectionFactoryIsStoppedRefreshesNothingAndThrowsNothing() {
		LettuceConnectionFactory stopped = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of("127.0.0.1:1")));
		assertThatNoException().isThrownBy(LettuceTopologyRefresh.of(stopped)::run);
	}

	private static RedisLockClient startedClient(LettuceConnectionFactory connectionFactory) {
		RedisLockClient client = RedisLockClient.builder(new StringRedisTemplate(connectionFactory))
			.clusterSlots(true)
			.defaultOptions(LockOptions.renewing(Duration.ZERO))
			.build();
		client.start();
		return client;
	}

	private static boolean locksOnce(RedisLockClient client, String key) {
		Optional<LockHandle> held = client.tryLock(key);
		held.ifPresent(LockHandle::close);
		return held.isPresent();
	}

	/**
	 * A Lettuce cluster connection factory with every adaptive trigger and the 1 s pause
	 * that the auto-configuration sets, and a short command timeout.
	 */
	private static LettuceConnectionFactory connectionFactory(RedisClusterDeployment cluster) {
		ClusterClientOptions options = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
				.build())
			.build();
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(Arrays.asList(cluster.clusterNodes().split(","))),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofSeconds(2))
					.clientOptions(options)
					.build());
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		return connectionFactory;
	}

}
