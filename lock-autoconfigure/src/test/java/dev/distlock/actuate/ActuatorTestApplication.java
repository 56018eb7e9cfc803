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

package dev.distlock.actuate;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.distlock.DistributedLock;
import dev.distlock.test.redis.RedisTestServer;

/**
 * An application with distlock, Actuator and Micrometer, for {@code @SpringBootTest}s of
 * the observability features.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class ActuatorTestApplication {

	@Bean
	Jobs jobs() {
		return new Jobs();
	}

	static void redis(DynamicPropertyRegistry registry, RedisTestServer server) {
		registry.add("spring.data.redis.url", server::url);
		registry.add("spring.data.redis.timeout", () -> "2s");
		registry.add("spring.data.redis.connect-timeout", () -> "2s");
	}

	/**
	 * Waits for a latch, failing after ten seconds.
	 * @param latch the latch
	 */
	static void await(CountDownLatch latch) {
		try {
			if (!latch.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Latch not released in time");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public static class Jobs {

		@DistributedLock(key = "'job:' + #id", waitTime = "10s")
		public void hold(String id, Runnable body) {
			body.run();
		}

		@DistributedLock(key = "'job:' + #id", name = "counted", waitTime = "0")
		public String counted(String id) {
			return id;
		}

	}

}
