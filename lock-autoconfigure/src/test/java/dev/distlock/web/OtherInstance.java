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

package dev.distlock.web;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.testing.TestRedis;

/**
 * Another instance of the application: a lock client of its own, on a connection of its
 * own, that holds locks in Redis while a request of the application under test wants
 * them.
 */
final class OtherInstance implements AutoCloseable {

	private final LettuceConnectionFactory connection;

	private final RedisLockClient client;

	/**
	 * Creates the instance.
	 * @param redis the server
	 * @param keyPrefix the key prefix, as the application's {@code distlock.key-prefix}
	 */
	OtherInstance(RedisTestServer redis, String keyPrefix) {
		this.connection = TestRedis.connectionFactory(redis);
		this.client = RedisLockClient.builder(TestRedis.template(this.connection)).keyPrefix(keyPrefix).build();
	}

	/**
	 * Acquires a lock with a lease of 30 seconds, waiting for it up to 5 seconds.
	 * @param key the key, without the prefix
	 * @return the hold
	 */
	LockHandle lock(String key) {
		return this.client.lock(key, new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

	@Override
	public void close() {
		this.client.close();
		this.connection.destroy();
	}

}
