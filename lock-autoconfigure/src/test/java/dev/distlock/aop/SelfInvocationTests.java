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

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.AopContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.EnableAspectJAutoProxy;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What docs/using.md#calls-must-go-through-the-proxy says: a call from another method of
 * the same bean runs unlocked, and each of its remedies takes the lock. Each call is made
 * while another thread holds the lock, with a wait of zero: a call that takes the lock
 * fails with {@link LockNotAcquiredException}, one that runs unlocked returns.
 */
class SelfInvocationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis();

	@Test
	void callFromTheSameBeanRunsUnlocked() {
		String sku = TestRedis.uniqueKey("self");
		this.runner.withBean(StockService.class).run((context) -> {
			StockService stock = context.getBean(StockService.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "lock:sku:" + sku)) {
				assertThat(stock.restockThroughThis(sku)).as("ran although the lock is held").isEqualTo(1);
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> stock.decrement(sku));
			}
		});
	}

	@Test
	void callThroughTheExposedProxyTakesTheLock() {
		String sku = TestRedis.uniqueKey("self");
		this.runner.withUserConfiguration(ExposedProxy.class).run((context) -> {
			StockService stock = context.getBean(StockService.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "lock:sku:" + sku)) {
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> stock.restockThroughProxy(sku));
			}
			assertThat(stock.restockThroughProxy(sku)).isEqualTo(1);
		});
	}

	@Test
	void lockTakenInCodeWithTheLockClient() {
		String sku = TestRedis.uniqueKey("self");
		this.runner.run((context) -> {
			LockClient locks = context.getBean(LockClient.class);
			try (HeldLock held = HeldLock.elsewhere(locks, "lock:sku:" + sku)) {
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> locks
					.execute("lock:sku:" + sku, new LockOptions(Duration.ZERO, Duration.ofSeconds(5)), () -> 1));
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAspectJAutoProxy(exposeProxy = true)
	static class ExposedProxy {

		@Bean
		StockService stockService() {
			return new StockService();
		}

	}

	static class StockService {

		public int restockThroughThis(String sku) {
			return decrement(sku);
		}

		public int restockThroughProxy(String sku) {
			return ((StockService) AopContext.currentProxy()).decrement(sku);
		}

		@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "0")
		public int decrement(String sku) {
			return 1;
		}

	}

}
