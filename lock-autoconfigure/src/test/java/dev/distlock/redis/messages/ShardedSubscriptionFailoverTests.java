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

package dev.distlock.redis.messages;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sharded subscription whose slot's master is killed follows the slot to the promoted
 * replica by itself, within the 5 seconds the issue allows, while its caller keeps
 * waiting: no new waiter joins to subscribe it again, so the subscription's own checks
 * must go on until the promoted master confirms it.
 */
class ShardedSubscriptionFailoverTests {

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", true, 1024);

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
	void subscriptionFollowsItsSlotToThePromotedMasterWhileTheCallerWaits() {
		String key = "lock:sharded:steady";
		LettuceConnectionFactory connectionFactory = connectionFactory();
		SlotSubscriptions slots = new SlotSubscriptions((slot) -> KEYSPACE.shardedReleaseChannel("steady", slot));
		ReleaseMessageWaiter waiter = new ReleaseMessageWaiter(
				new JitteredBackoffWaiter(Duration.ofMillis(1), Duration.ofMillis(50)), slots);
		ShardedReleaseSubscription subscription = new ShardedReleaseSubscription(connectionFactory, slots, waiter);
		try {
			subscription.start();
			int slot = slots.join(key);
			String channel = KEYSPACE.shardedReleaseChannel("steady", slot);
			RedisServerProcess master = cluster.masterOf(key);
			await().atMost(Duration.ofSeconds(10)).until(() -> slots.channelIfSubscribed(slot) != null);
			assertThat(subscribers(master, channel)).isEqualTo(1);
			cluster.kill(master);
			RedisServerProcess promoted = cluster.awaitPromotion(key, Duration.ofSeconds(20));
			long promotedAt = System.nanoTime();
			await().atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> subscribers(promoted, channel) == 1 && slots.channelIfSubscribed(slot) != null);
			System.out.println("Sharded subscription confirmed by the promoted master "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - promotedAt) + "ms after promotion");
			assertThat(subscription.state().subscribedSlots()).containsExactly(slot);
			slots.leave(slot);
			await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(promoted, channel) == 0);
		}
		finally {
			subscription.stop();
			connectionFactory.destroy();
		}
	}

	private static LettuceConnectionFactory connectionFactory() {
		List<String> nodes = Arrays.asList(cluster.clusterNodes().split(","));
		ClusterClientOptions options = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
			.build();
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(new RedisClusterConfiguration(nodes),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofSeconds(2))
					.clientOptions(options)
					.build());
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		return connectionFactory;
	}

	private static long subscribers(RedisServerProcess master, String channel) {
		List<?> reply = (List<?>) RedisAdminCommands.call(master, "PUBSUB", "SHARDNUMSUB", channel);
		return (Long) reply.get(1);
	}

}
