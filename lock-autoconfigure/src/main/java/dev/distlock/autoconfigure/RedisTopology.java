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

package dev.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Tells whether a connection factory talks to a Redis Cluster, for either client library
 * Spring Data Redis supports, without loading the one that is absent.
 */
final class RedisTopology {

	/** The class of Lettuce whose presence says that Lettuce is there. */
	static final String LETTUCE_CLIENT = "io.lettuce.core.RedisClient";

	/** The class of Jedis whose presence says that Jedis is there. */
	static final String JEDIS_CLIENT = "redis.clients.jedis.Jedis";

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(LETTUCE_CLIENT,
			RedisTopology.class.getClassLoader());

	private static final boolean JEDIS_PRESENT = ClassUtils.isPresent(JEDIS_CLIENT,
			RedisTopology.class.getClassLoader());

	private RedisTopology() {
	}

	static boolean isCluster(RedisConnectionFactory connectionFactory) {
		if (LETTUCE_PRESENT && connectionFactory instanceof LettuceConnectionFactory lettuce) {
			return lettuce.isClusterAware();
		}
		if (JEDIS_PRESENT && connectionFactory instanceof JedisConnectionFactory jedis) {
			return jedis.isRedisClusterAware();
		}
		return false;
	}

	/**
	 * Lets a native image find the client libraries by name, as the checks above do;
	 * otherwise both would look absent there and a cluster would be taken for a single
	 * server. Registered in {@code META-INF/spring/aot.factories}.
	 */
	static final class RedisTopologyRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerTypeIfPresent(classLoader, LETTUCE_CLIENT);
			hints.reflection().registerTypeIfPresent(classLoader, JEDIS_CLIENT);
		}

	}

}
