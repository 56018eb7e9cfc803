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

package dev.distlock.testing;

import java.time.Duration;
import java.util.UUID;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisTestServer;

/**
 * Redis connections and keys for tests.
 */
public final class TestRedis {

	private TestRedis() {
	}

	/**
	 * Returns a started connection factory for the server, with short timeouts so that an
	 * unreachable server fails fast.
	 * @param server the server
	 * @return the factory; destroy it when done
	 */
	public static LettuceConnectionFactory connectionFactory(RedisTestServer server) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()), client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Returns a template on the factory.
	 * @param factory the connection factory
	 * @return the template
	 */
	public static StringRedisTemplate template(LettuceConnectionFactory factory) {
		StringRedisTemplate template = new StringRedisTemplate(factory);
		template.afterPropertiesSet();
		return template;
	}

	/**
	 * Returns a key no other test uses, so tests can share a server.
	 * @param name what the key is for
	 * @return the key
	 */
	public static String uniqueKey(String name) {
		return "test:" + name + ":" + UUID.randomUUID();
	}

}
