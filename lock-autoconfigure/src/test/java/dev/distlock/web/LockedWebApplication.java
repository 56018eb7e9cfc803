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

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.autoconfigure.web.DistributedLockWebAutoConfiguration;
import dev.distlock.test.redis.RedisTestServer;

/**
 * A web application with distlock against a given Redis: a controller whose requests run
 * locked work, in Spring MVC or in WebFlux, with the auto-configuration an application of
 * either kind has.
 */
@Configuration(proxyBeanMethods = false)
class LockedWebApplication {

	private static final String[] REDIS_TIMEOUTS = { "spring.data.redis.timeout=2s",
			"spring.data.redis.connect-timeout=2s" };

	@Bean
	LockedWork lockedWork() {
		return new LockedWork();
	}

	@Bean
	LockedController lockedController(LockedWork lockedWork) {
		return new LockedController(lockedWork);
	}

	/**
	 * Returns a runner of the application in Spring MVC.
	 * @param redis the Redis server
	 * @return the runner
	 */
	static WebApplicationContextRunner servlet(RedisTestServer redis) {
		return new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
					DistributedLockAutoConfiguration.class, DistributedLockWebAutoConfiguration.class,
					JacksonAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
					WebMvcAutoConfiguration.class))
			.withPropertyValues(REDIS_TIMEOUTS)
			.withPropertyValues("spring.data.redis.url=" + redis.url())
			.withUserConfiguration(LockedWebApplication.class);
	}

	/**
	 * Returns a runner of the application in WebFlux.
	 * @param redis the Redis server
	 * @return the runner
	 */
	static ReactiveWebApplicationContextRunner reactive(RedisTestServer redis) {
		return new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, AopAutoConfiguration.class,
					DistributedLockAutoConfiguration.class, DistributedLockWebAutoConfiguration.class,
					JacksonAutoConfiguration.class, CodecsAutoConfiguration.class, WebFluxAutoConfiguration.class))
			.withPropertyValues(REDIS_TIMEOUTS)
			.withPropertyValues("spring.data.redis.url=" + redis.url())
			.withUserConfiguration(LockedWebApplication.class);
	}

	/**
	 * Work under locks: {@code stock} waits 100ms for its lock, {@code report} does not
	 * wait and has a fixed lease of 300ms. Both count their runs and run what the test
	 * asks for while they hold the lock.
	 */
	static class LockedWork {

		private final AtomicInteger runs = new AtomicInteger();

		private volatile Runnable during = () -> {
		};

		void during(Runnable during) {
			this.during = during;
		}

		int runs() {
			return this.runs.get();
		}

		@DistributedLock(name = "stock", key = "'web:stock:' + #sku", waitTime = "100ms")
		public void stock(String sku) {
			this.runs.incrementAndGet();
			this.during.run();
		}

		@DistributedLock(name = "report", key = "'web:report:' + #id", waitTime = "0", leaseTime = "300ms")
		public void report(String id) {
			this.runs.incrementAndGet();
			this.during.run();
		}

	}

}
