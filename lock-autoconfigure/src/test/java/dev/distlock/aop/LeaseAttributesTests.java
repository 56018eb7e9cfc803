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
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.LockFailureAction;
import dev.distlock.LockHandle;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lease and minimum hold a {@link DistributedLock @DistributedLock} asks for reach
 * the lock its method runs under: {@link DistributedLock#AUTO_RENEW} renews even where a
 * fixed lease is configured, a fixed lease replaces the renewing default, and a minimum
 * hold keeps the key after the method returns, so that the next tick of a scheduled job
 * is skipped.
 */
class LeaseAttributesTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(Config.class);

	@Test
	void autoRenewConstantRenewsEvenWithAConfiguredFixedLease() {
		this.runner.withPropertyValues("distlock.lease-time=10s").run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.autoRenewing(TestRedis.uniqueKey("lease")).isAutoRenewing()).isTrue();
			LockHandle configured = jobs.configured(TestRedis.uniqueKey("lease"));
			assertThat(configured.isAutoRenewing()).isFalse();
			assertThat(configured.leaseTime()).isEqualTo(Duration.ofSeconds(10));
		});
	}

	@Test
	void fixedLeaseReplacesTheRenewingDefault() {
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.configured(TestRedis.uniqueKey("lease")).isAutoRenewing()).as("no lease-time configured")
				.isTrue();
			LockHandle fixed = jobs.fixed(TestRedis.uniqueKey("lease"));
			assertThat(fixed.isAutoRenewing()).isFalse();
			assertThat(fixed.leaseTime()).isEqualTo(Duration.ofSeconds(7));
		});
	}

	@Test
	void minimumHoldKeepsTheKeySoTheNextTickIsSkipped() {
		String id = TestRedis.uniqueKey("tick");
		this.runner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			jobs.tick(id);
			assertThat(redis.getExpire("tick:" + id, TimeUnit.MILLISECONDS)).as("kept for the rest of the minimum hold")
				.isBetween(1L, 1500L);
			jobs.tick(id);
			assertThat(jobs.ticks()).as("second tick skipped during the minimum hold").isEqualTo(1);
			await().atMost(Duration.ofSeconds(5)).until(() -> !redis.hasKey("tick:" + id));
			jobs.tick(id);
			assertThat(jobs.ticks()).isEqualTo(2);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

	}

	static class Jobs {

		private final AtomicInteger ticks = new AtomicInteger();

		int ticks() {
			return this.ticks.get();
		}

		@DistributedLock(key = "'lease:' + #id", leaseTime = DistributedLock.AUTO_RENEW)
		public LockHandle autoRenewing(String id) {
			return LockContext.current().orElseThrow();
		}

		@DistributedLock(key = "'lease:' + #id")
		public LockHandle configured(String id) {
			return LockContext.current().orElseThrow();
		}

		@DistributedLock(key = "'lease:' + #id", leaseTime = "7s")
		public LockHandle fixed(String id) {
			return LockContext.current().orElseThrow();
		}

		@DistributedLock(key = "'tick:' + #id", waitTime = "0", minHoldTime = "1500ms",
				onNotAcquired = LockFailureAction.SKIP)
		public void tick(String id) {
			this.ticks.incrementAndGet();
		}

	}

}
