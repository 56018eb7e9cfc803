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
import java.util.function.Consumer;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockOptions;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.redis.RedisClusterDeployment;

/**
 * One process's side of a lock on a test cluster: its own Lettuce cluster connection
 * (adaptive topology refresh and a short command timeout, as an application on a cluster
 * configures it) and a client wired as the auto-configuration wires it on a cluster, with
 * sharded release channels or, as a control, the one classic channel.
 */
final class ClusterLockSide implements AutoCloseable {

	static final LockKeyspace KEYSPACE = new LockKeyspace("", true, RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);

	final LettuceConnectionFactory connectionFactory;

	final StringRedisTemplate redis;

	final RedisLockClient client;

	ClusterLockSide(RedisClusterDeployment cluster, boolean shardedChannels) {
		this(cluster, shardedChannels, (builder) -> {
		});
	}

	ClusterLockSide(RedisClusterDeployment cluster, boolean shardedChannels,
			Consumer<RedisLockClientBuilder> customizer) {
		List<String> nodes = Arrays.asList(cluster.clusterNodes().split(","));
		ClusterClientOptions options = ClusterClientOptions.builder()
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
			.build();
		this.connectionFactory = new LettuceConnectionFactory(new RedisClusterConfiguration(nodes),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofSeconds(2))
					.clientOptions(options)
					.build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		RedisLockClientBuilder builder = RedisLockClient.builder(this.redis)
			.clusterSlots(true)
			.releaseMessages(true)
			.shardedChannels(shardedChannels)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)));
		customizer.accept(builder);
		this.client = builder.build();
		this.client.start();
	}

	/** The client's release message waiter. */
	ReleaseMessageWaiter waiter() {
		ReleaseMessageWaiter waiter = this.client.releaseWaiter();
		if (waiter == null) {
			throw new IllegalStateException("release messages are off");
		}
		return waiter;
	}

	/** The channel a release tells this client's waiters on a lock key on. */
	String channelOf(String key) {
		return KEYSPACE.shardedReleaseChannel(
				this.client.releaseChannel().substring(this.client.releaseChannel().lastIndexOf(':') + 1),
				LockKeyspace.slot(key));
	}

	@Override
	public void close() {
		this.client.close();
		this.connectionFactory.destroy();
	}

}
