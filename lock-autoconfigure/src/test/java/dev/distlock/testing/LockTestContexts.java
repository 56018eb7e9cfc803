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

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

/**
 * Application contexts as a Spring Boot application with distlock would have them.
 */
public final class LockTestContexts {

	private LockTestContexts() {
	}

	/**
	 * Returns a runner with Redis, AOP and distlock auto-configured against the shared
	 * server.
	 * @return the runner
	 */
	public static ApplicationContextRunner withSharedRedis() {
		return withRedis(RedisTestServers.shared());
	}

	/**
	 * Returns a runner with Redis, AOP and distlock auto-configured against the given
	 * server, with timeouts short enough for an unreachable server to fail fast.
	 * @param server the Redis server
	 * @return the runner
	 */
	public static ApplicationContextRunner withRedis(RedisTestServer server) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
					DistributedLockAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + server.url(), "spring.data.redis.timeout=2s",
					"spring.data.redis.connect-timeout=2s");
	}

}
