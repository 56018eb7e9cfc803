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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Programmatic calls take the settings of a name from
 * {@link LockClient#defaultOptions(String)}; options a call passes are used as they are,
 * named or not.
 */
class ProgrammaticLockNamesTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withPropertyValues("distlock.wait-time=300ms", "distlock.locks.report.programmatic=true",
				"distlock.locks.report.wait-time=0", "distlock.locks.report.lease-time=10s",
				"distlock.locks.report.min-hold-time=1s");

	@Test
	void defaultOptionsOfANameAreTheConfiguredOnes() {
		this.runner.run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			assertThat(client.defaultOptions("report"))
				.isEqualTo(new LockOptions(Duration.ZERO, Duration.ofSeconds(10), Duration.ofSeconds(1), "report"));
			assertThat(client.defaultOptions("other")).isEqualTo(client.defaultOptions().withName("other"));
		});
	}

	@Test
	void lockTakenWithTheOptionsOfANameHasItsSettingsInRedis() {
		this.runner.run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			String key = TestRedis.uniqueKey("report");
			try (LockHandle handle = client.lock(key, client.defaultOptions("report"))) {
				assertThat(handle.name()).isEqualTo("report");
				assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(9_000L, 10_000L);
			}
			assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).as("kept for the minimum hold")
				.isBetween(1L, 1_000L);
		});
	}

	@Test
	void optionsACallPassesAreUsedAsTheyAre() {
		this.runner.run((context) -> {
			LockClient client = context.getBean(LockClient.class);
			String key = TestRedis.uniqueKey("report");
			try (HeldLock held = HeldLock.elsewhere(client, key)) {
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> client.lock(key, client.defaultOptions("report")))
					.withMessageContaining("beyond the wait time of PT0S");
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> client.lock(key, LockOptions.renewing(Duration.ofMillis(200)).withName("report")))
					.withMessageContaining("beyond the wait time of PT0.2S");
				assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(
						() -> client.lock(key, client.defaultOptions("report").withWaitTime(Duration.ofMillis(100))))
					.withMessageContaining("beyond the wait time of PT0.1S");
			}
		});
	}

	@Test
	void builderDerivesTheOptionsOfANameFromTheFinalDefaults() {
		this.runner.run((context) -> {
			try (RedisLockClient client = RedisLockClient.builder(context.getBean(StringRedisTemplate.class))
				.defaultOptions("report", (defaults) -> defaults.withWaitTime(Duration.ZERO))
				.defaultOptions(new LockOptions(Duration.ofSeconds(2), Duration.ofSeconds(20)))
				.build()) {
				assertThat(client.defaultOptions("report"))
					.isEqualTo(new LockOptions(Duration.ZERO, Duration.ofSeconds(20), Duration.ZERO, "report"));
			}
		});
	}

}
