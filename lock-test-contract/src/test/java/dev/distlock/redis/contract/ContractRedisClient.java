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

package dev.distlock.redis.contract;

import java.time.Duration;
import java.util.function.Consumer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.awaitility.Awaitility.await;

/**
 * A {@link RedisLockClient} built as an application would build one, through its public
 * builder, on a connection of its own to the shared test Redis (short command timeouts,
 * so that an unreachable server fails fast), started and subscribed: what the blocking
 * and the reactive contract suites on Redis run against.
 */
final class ContractRedisClient implements AutoCloseable {

	final LettuceConnectionFactory connectionFactory;

	final RedisLockClient client;

	private ContractRedisClient(LettuceConnectionFactory connectionFactory, RedisLockClient client) {
		this.connectionFactory = connectionFactory;
		this.client = client;
	}

	/**
	 * Builds and starts the client.
	 * @param configure what the client does differently from the builder's defaults
	 * @return the started client
	 */
	static ContractRedisClient start(Consumer<RedisLockClientBuilder> configure) {
		RedisTestServer server = RedisTestServers.shared();
		LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		connectionFactory.afterPropertiesSet();
		connectionFactory.start();
		RedisLockClientBuilder builder = RedisLockClient.builder(new StringRedisTemplate(connectionFactory));
		configure.accept(builder);
		RedisLockClient client = builder.build();
		client.start();
		client.monitor()
			.releaseSubscription()
			.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
		return new ContractRedisClient(connectionFactory, client);
	}

	@Override
	public void close() {
		try {
			this.client.close();
		}
		finally {
			this.connectionFactory.destroy();
		}
	}

}
