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
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Settings of named locks ({@code distlock.locks.<name>.*}) reach the locks of
 * {@link DistributedLock @DistributedLock} methods of that name, for each of wait time,
 * lease time and minimum hold: an attribute of the annotation beats them, and they beat
 * the {@code distlock.*} defaults. Shown in Redis: how long a caller waits for a held
 * lock, the key's time to live while held, and whether the key outlives the method.
 */
class NamedLockSettingsTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(Config.class)
		.withPropertyValues("distlock.wait-time=300ms", "distlock.lease-time=20s", "distlock.locks.stock.wait-time=0",
				"distlock.locks.stock.lease-time=10s", "distlock.locks.stock.min-hold-time=2s",
				"distlock.locks.renewing.lease-time=-1");

	@Test
	void waitTimeOfTheNameBeatsTheDefaultAndTheAnnotationBeatsBoth() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			String key = TestRedis.uniqueKey("named");
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), key)) {
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.stock(key))
					.withMessageContaining("beyond the wait time of PT0S");
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.stockAnnotated(key))
					.withMessageContaining("beyond the wait time of PT0.2S")
					.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(200)));
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> jobs.unnamed(key))
					.withMessageContaining("beyond the wait time of PT0.3S")
					.satisfies((ex) -> assertThat(ex.getWaited()).isGreaterThanOrEqualTo(Duration.ofMillis(300)));
			}
		});
	}

	@Test
	void leaseTimeOfTheNameBeatsTheDefaultAndTheAnnotationBeatsBoth() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.stock(TestRedis.uniqueKey("named"))).as("distlock.locks.stock.lease-time=10s")
				.isBetween(9_000L, 10_000L);
			assertThat(jobs.stockAnnotated(TestRedis.uniqueKey("named"))).as("leaseTime = \"7s\"")
				.isBetween(6_000L, 7_000L);
			assertThat(jobs.unnamed(TestRedis.uniqueKey("named"))).as("distlock.lease-time=20s")
				.isBetween(19_000L, 20_000L);
		});
	}

	@Test
	void minusOneRenewsTheLeaseOfTheNameWhereTheDefaultLeaseIsFixed() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.renewing(TestRedis.uniqueKey("named"))).as("renewal lease of 30s")
				.isBetween(29_000L, 30_000L);
			assertThat(jobs.stockRenewing(TestRedis.uniqueKey("named")))
				.as("leaseTime = AUTO_RENEW beats distlock.locks.stock.lease-time")
				.isBetween(29_000L, 30_000L);
		});
	}

	@Test
	void minimumHoldOfTheNameKeepsTheKeyUnlessTheAnnotationSaysOtherwise() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			String stock = TestRedis.uniqueKey("named");
			jobs.stock(stock);
			assertThat(redis.getExpire(stock, TimeUnit.MILLISECONDS)).as("kept by distlock.locks.stock.min-hold-time")
				.isBetween(1L, 2_000L);
			String annotated = TestRedis.uniqueKey("named");
			jobs.stockAnnotated(annotated);
			assertThat(redis.hasKey(annotated)).as("minHoldTime = \"0\" beats the name's").isFalse();
			String unnamed = TestRedis.uniqueKey("named");
			jobs.unnamed(unnamed);
			assertThat(redis.hasKey(unnamed)).as("no minimum hold by default").isFalse();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Jobs jobs(StringRedisTemplate redis) {
			return new Jobs(redis);
		}

	}

	/**
	 * Locked methods that return the time to live of their key in milliseconds, as Redis
	 * has it while they hold the lock.
	 */
	static class Jobs {

		private final StringRedisTemplate redis;

		Jobs(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@DistributedLock(key = "#key", name = "stock")
		public long stock(String key) {
			return timeToLive(key);
		}

		@DistributedLock(key = "#key", name = "stock", waitTime = "200ms", leaseTime = "7s", minHoldTime = "0")
		public long stockAnnotated(String key) {
			return timeToLive(key);
		}

		@DistributedLock(key = "#key", name = "stock", leaseTime = DistributedLock.AUTO_RENEW)
		public long stockRenewing(String key) {
			assertThat(LockContext.current().orElseThrow().isAutoRenewing()).isTrue();
			return timeToLive(key);
		}

		@DistributedLock(key = "#key", name = "renewing")
		public long renewing(String key) {
			assertThat(LockContext.current().orElseThrow().isAutoRenewing()).isTrue();
			return timeToLive(key);
		}

		@DistributedLock(key = "#key")
		public long unnamed(String key) {
			return timeToLive(key);
		}

		private long timeToLive(String key) {
			return this.redis.getExpire(key, TimeUnit.MILLISECONDS);
		}

	}

}
