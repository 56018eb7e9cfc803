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

package dev.distlock.redis.protocol;

import java.util.Collection;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.NamedNode;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Says where a connection factory connects, for the messages of a Redis that cannot be
 * reached: {@code host:port} of a single server, the nodes of a cluster, or the master
 * name and sentinels of Sentinel, as the factory was configured (from
 * {@code spring.data.redis.*} in a Spring Boot application). Passwords are never part of
 * it.
 */
public final class RedisAddress {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisAddress.class.getClassLoader());

	private RedisAddress() {
	}

	/**
	 * Describes where the factory connects, for example {@code localhost:6379},
	 * {@code cluster nodes 10.0.0.1:7000, 10.0.0.2:7000} or
	 * {@code sentinel master mymaster via 10.0.0.1:26379}.
	 * @param connectionFactory the factory, if known
	 * @return the description
	 */
	public static String of(@Nullable RedisConnectionFactory connectionFactory) {
		if (connectionFactory == null) {
			return "an unknown address (no connection factory)";
		}
		if (LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce) {
			return ofLettuce(lettuce);
		}
		return "the address of its " + connectionFactory.getClass().getSimpleName();
	}

	private static String ofLettuce(LettuceConnectionFactory lettuce) {
		RedisClusterConfiguration cluster = lettuce.getClusterConfiguration();
		if (lettuce.isClusterAware() && cluster != null) {
			return "cluster nodes " + nodes(cluster.getClusterNodes());
		}
		RedisSentinelConfiguration sentinel = lettuce.getSentinelConfiguration();
		if (lettuce.isRedisSentinelAware() && sentinel != null) {
			NamedNode master = sentinel.getMaster();
			String name = (master != null) ? master.getName() : null;
			return "sentinel master " + ((name != null) ? name : "(unnamed)") + " via "
					+ nodes(sentinel.getSentinels());
		}
		if (lettuce.getSocketConfiguration() != null) {
			return "socket " + lettuce.getSocketConfiguration().getSocket();
		}
		return lettuce.getHostName() + ":" + lettuce.getPort();
	}

	private static String nodes(Collection<RedisNode> nodes) {
		return nodes.isEmpty() ? "(none)" : nodes.stream().map(RedisAddress::node).collect(Collectors.joining(", "));
	}

	private static String node(RedisNode node) {
		return node.getHost() + ":" + node.getPort();
	}

}
