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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockFailureAction;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A fallback method runs instead of the locked method while another thread holds the
 * lock: on the target object, with the call's arguments and, if it asks for it, the
 * exception.
 */
class FallbackMethodTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(Config.class);

	@Test
	void fallbackMethodAloneImpliesFallbackAndGetsTheArguments() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "stock:" + sku)) {
				assertThat(stock.level(sku, 7)).isEqualTo(70);
			}
			assertThat(stock.calls()).containsExactly("cachedLevel(" + sku + ", 7)");
		});
	}

	@Test
	void fallbackDeclaringTheExceptionReceivesIt() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "stock:" + sku)) {
				assertThat(stock.reserve(sku, 3L)).isEqualTo("queued " + sku);
			}
			assertThat(stock.calls()).containsExactly("busy(" + sku + ", 3, stock:" + sku + ")");
			assertThat(stock.failures()).singleElement()
				.isInstanceOf(LockNotAcquiredException.class)
				.extracting((failure) -> ((LockNotAcquiredException) failure).getKey())
				.isEqualTo("stock:" + sku);
		});
	}

	@Test
	void fallbackIsCalledOnTheTargetNotThroughTheProxy() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "stock:" + sku)) {
				assertThatThrownBy(() -> stock.lockedFallback(sku))
					.as("through the proxy, the fallback's own lock on the held key fails")
					.isInstanceOf(LockNotAcquiredException.class);
				stock.release(sku);
			}
			assertThat(stock.calls()).as("void release(String) fell back to lockedFallback on the target")
				.containsExactly("lockedFallback(" + sku + ")");
		});
	}

	@Test
	void exceptionOfTheFallbackPropagatesUnchanged() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), "stock:" + sku)) {
				assertThatThrownBy(() -> stock.checked(sku)).isSameAs(Stock.FALLBACK_FAILURE);
			}
		});
	}

	@Test
	void lockedMethodRunsAndFallbackIsNotCalledWhenTheLockIsFree() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			assertThat(stock.level(sku, 7)).isEqualTo(7);
			assertThat(stock.reserve(sku, 3L)).isEqualTo("reserved 3");
			assertThat(stock.calls()).containsExactly("level(" + sku + ", 7)", "reserve(" + sku + ", 3)");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Stock stock() {
			return new Stock();
		}

	}

	static class Stock {

		static final Exception FALLBACK_FAILURE = new Exception("fallback failed");

		private final List<String> calls = new CopyOnWriteArrayList<>();

		private final List<Exception> failures = new CopyOnWriteArrayList<>();

		List<String> calls() {
			return this.calls;
		}

		List<Exception> failures() {
			return this.failures;
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "cachedLevel")
		public int level(String sku, int hint) {
			this.calls.add("level(" + sku + ", " + hint + ")");
			return hint;
		}

		int cachedLevel(CharSequence sku, Integer hint) {
			this.calls.add("cachedLevel(" + sku + ", " + hint + ")");
			return hint * 10;
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0", onNotAcquired = LockFailureAction.FALLBACK,
				fallbackMethod = "busy")
		public String reserve(String sku, long quantity) {
			this.calls.add("reserve(" + sku + ", " + quantity + ")");
			return "reserved " + quantity;
		}

		private String busy(String sku, long quantity, LockNotAcquiredException failure) {
			this.calls.add("busy(" + sku + ", " + quantity + ", " + failure.getKey() + ")");
			this.failures.add(failure);
			return "queued " + sku;
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "lockedFallback")
		public void release(String sku) {
			this.calls.add("release(" + sku + ")");
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
		public String lockedFallback(String sku) {
			this.calls.add("lockedFallback(" + sku + ")");
			return "fallback result, ignored for a void method";
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "failingFallback")
		public String checked(String sku) throws Exception {
			return "checked";
		}

		protected String failingFallback(String sku) throws Exception {
			throw FALLBACK_FAILURE;
		}

	}

}
