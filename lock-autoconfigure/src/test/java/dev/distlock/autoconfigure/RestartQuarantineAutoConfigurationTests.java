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
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code distlock.restart-quarantine.*}: off by default; when enabled, its duration is
 * the longest lease the properties give unless set, a duration shorter than one of them
 * fails startup naming both properties, and an acquisition with a longer lease (blocking,
 * several keys, reactive) fails before anything is sent to Redis, naming the property.
 * Each context uses a key prefix of its own whose fencing counter is set beforehand, as
 * on a server that has it, so that no quarantine starts.
 */
class RestartQuarantineAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis();

	@Test
	void offByDefaultAnyLeaseIsAccepted() {
		this.runner.withPropertyValues("distlock.key-prefix=" + prefix()).run((context) -> {
			try (LockHandle handle = context.getBean(RedisLockClient.class)
				.lock("off", new LockOptions(Duration.ZERO, Duration.ofDays(1)))) {
				assertThat(handle.leaseTime()).isEqualTo(Duration.ofDays(1));
			}
		});
	}

	@Test
	void derivedFromTheLongestLeaseTheLockIsRefusedALongerOne() {
		String prefix = prefix();
		this.runner
			.withPropertyValues("distlock.key-prefix=" + prefix, "distlock.restart-quarantine.enabled=true",
					"distlock.renewal.lease=2s", "distlock.lease-time=3s", "distlock.locks.long.lease-time=5s",
					"distlock.locks.long.programmatic=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RedisLockClient client = context.getBean(RedisLockClient.class);
				client.lock("renewed", LockOptions.renewing(Duration.ZERO)).close();
				client.lock("longest", new LockOptions(Duration.ZERO, Duration.ofSeconds(5))).close();
				LockOptions tooLong = new LockOptions(Duration.ZERO, Duration.ofSeconds(6));
				assertThatExceptionOfType(LockMisconfigurationException.class)
					.isThrownBy(() -> client.lock("too-long", tooLong))
					.withMessageContaining("too-long")
					.withMessageContaining("lease of 6000ms")
					.withMessageContaining("distlock.restart-quarantine.duration) is 5000ms");
				assertThatExceptionOfType(LockMisconfigurationException.class)
					.isThrownBy(() -> client.lock(List.of("a", "b"), tooLong))
					.withMessageContaining("distlock.restart-quarantine.duration");
				ReactiveLockClient reactive = context.getBean(ReactiveLockClient.class);
				assertThatExceptionOfType(LockMisconfigurationException.class)
					.isThrownBy(() -> reactive.lock("reactive", tooLong).block())
					.withMessageContaining("distlock.restart-quarantine.duration");
				assertThat(RedisAdminCommands.call(RedisTestServers.shared(), "EXISTS", prefix + "too-long",
						prefix + "a", prefix + "reactive"))
					.as("keys written")
					.isEqualTo(0L);
			});
	}

	@Test
	void aDurationShorterThanALeaseFailsStartupNamingBothProperties() {
		this.runner
			.withPropertyValues("distlock.restart-quarantine.enabled=true", "distlock.restart-quarantine.duration=10s")
			.run((context) -> assertStartupFailure(context, "distlock.restart-quarantine.duration must be at least "
					+ "the longest lease, distlock.renewal.lease (30s), and at most 106751d"));
		this.runner
			.withPropertyValues("distlock.restart-quarantine.enabled=true", "distlock.restart-quarantine.duration=40s",
					"distlock.locks[Stock.work].lease-time=1m")
			.run((context) -> assertStartupFailure(context, "distlock.restart-quarantine.duration must be at least "
					+ "the longest lease, distlock.locks[Stock.work].lease-time (1m)"));
	}

	@Test
	void aDurationIsNotCheckedWhileTheQuarantineIsOff() {
		this.runner.withPropertyValues("distlock.restart-quarantine.duration=1ms")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theBuilderRefusesALongerRenewalLease() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> RedisLockClient.builder(new StringRedisTemplate())
				.restartQuarantine(Duration.ofSeconds(10))
				.build())
			.withMessageContaining("distlock.restart-quarantine.duration")
			.withMessageContaining("the renewal lease is 30000ms");
	}

	private static void assertStartupFailure(AssertableApplicationContext context, String message) {
		assertThat(context).hasFailed();
		Throwable cause = context.getStartupFailure();
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		assertThat(cause).isInstanceOfSatisfying(BindValidationException.class,
				(failure) -> assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
					.extracting((error) -> error.getDefaultMessage())
					.asString()
					.startsWith(message));
	}

	/** A key prefix of its own, whose fencing counter exists. */
	private static String prefix() {
		String prefix = TestRedis.uniqueKey("quarantine-auto") + ":";
		RedisAdminCommands.call(RedisTestServers.shared(), "SET", prefix + "distlock:fence", "1");
		return prefix;
	}

}
