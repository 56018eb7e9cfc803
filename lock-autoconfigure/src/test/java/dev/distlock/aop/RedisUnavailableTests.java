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

package dev.distlock.aop;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.util.TestSocketUtils;

import dev.distlock.DistributedLock;
import dev.distlock.LockUnavailableException;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A locked method never runs without its lock: when Redis is down the caller gets a
 * {@link LockUnavailableException} and the method is not invoked.
 */
class RedisUnavailableTests {

	@Test
	void redisStoppedWhileTheApplicationRunsFailsClosed() {
		try (RedisTestServer server = RedisTestServers.startDedicated()) {
			LockTestContexts.withRedis(server).withUserConfiguration(Config.class).run((context) -> {
				Guarded guarded = context.getBean(Guarded.class);
				guarded.work("before");
				assertThat(guarded.invocations()).isEqualTo(1);
				server.stop();
				assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> guarded.work("during"))
					.withMessageContaining("guarded:during")
					.withMessageContaining("spring.data.redis");
				assertThat(guarded.invocations()).as("not invoked without its lock").isEqualTo(1);
				server.start();
			});
		}
	}

	@Test
	void redisNeverReachableFailsClosed() {
		int closedPort = TestSocketUtils.findAvailableTcpPort();
		LockTestContexts.withSharedRedis()
			.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + closedPort)
			.withUserConfiguration(Config.class)
			.run((context) -> {
				Guarded guarded = context.getBean(Guarded.class);
				assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> guarded.work("never"))
					.withMessageContaining("guarded:never");
				assertThat(guarded.invocations()).isZero();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

	}

	static class Guarded {

		private final AtomicInteger invocations = new AtomicInteger();

		public int invocations() {
			return this.invocations.get();
		}

		@DistributedLock(key = "'guarded:' + #id", waitTime = "0")
		public void work(String id) {
			this.invocations.incrementAndGet();
		}

	}

}
