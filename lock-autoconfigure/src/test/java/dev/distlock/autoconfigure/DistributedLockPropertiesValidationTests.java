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
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.validation.FieldError;

import dev.distlock.LockOptions;
import dev.distlock.LockRelease;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Values out of range fail the binding of {@link DistributedLockProperties}, without a
 * Bean Validation provider, with a field error naming the property, the value and the
 * valid range; values at the edges of the ranges start a working lock client.
 */
class DistributedLockPropertiesValidationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class));

	static Stream<Arguments> valuesOutOfRange() {
		return Stream.of(
				Arguments.of("wait-time=-1s", "distlock.waitTime", Duration.ofSeconds(-1),
						"distlock.wait-time must be zero or more, but is -1s"),
				Arguments.of("lease-time=0s", "distlock.leaseTime", Duration.ZERO,
						"distlock.lease-time must be between 1ms and 106751d, or unset to renew leases while locks "
								+ "are held, but is 0s"),
				Arguments.of("lease-time=999us", "distlock.leaseTime", Duration.ofNanos(999_000),
						"distlock.lease-time must be between 1ms and 106751d"),
				Arguments.of("lease-time=106752d", "distlock.leaseTime", Duration.ofDays(106752),
						"distlock.lease-time must be between 1ms and 106751d, or unset to renew leases while locks "
								+ "are held, but is 106752d"),
				Arguments.of("max-reconnect-delay=-1ms", "distlock.maxReconnectDelay", Duration.ofMillis(-1),
						"distlock.max-reconnect-delay must be between 0 (to keep Lettuce's own backoff) and 106751d, "
								+ "but is -1ms"),
				Arguments.of("renewal.lease=0s", "distlock.renewal.lease", Duration.ZERO,
						"distlock.renewal.lease must be between 3ms and 106751d, but is 0s"),
				Arguments.of("renewal.lease=2ms", "distlock.renewal.lease", Duration.ofMillis(2),
						"distlock.renewal.lease must be between 3ms and 106751d, but is 2ms"),
				Arguments.of("waiting.max-local-passes=-1", "distlock.waiting.maxLocalPasses", -1,
						"distlock.waiting.max-local-passes must be between 0 and 999, but is -1"),
				Arguments.of("waiting.max-local-passes=1000", "distlock.waiting.maxLocalPasses", 1000,
						"distlock.waiting.max-local-passes must be between 0 and 999, but is 1000"),
				Arguments.of("waiting.initial-backoff=0ms", "distlock.waiting.initialBackoff", Duration.ZERO,
						"distlock.waiting.initial-backoff must be more than zero and at most 106751d, but is 0s"),
				Arguments.of("waiting.initial-backoff=100ms", "distlock.waiting.maxBackoff", Duration.ofMillis(50),
						"distlock.waiting.max-backoff must be between distlock.waiting.initial-backoff (100ms) and "
								+ "106751d, but is 50ms"),
				Arguments.of("replication.min-replicas-acked=-1", "distlock.replication.minReplicasAcked", -1,
						"distlock.replication.min-replicas-acked must be 0 (no acknowledgement) or more, but is -1"),
				Arguments.of("max-key-length=0", "distlock.maxKeyLength", 0,
						"distlock.max-key-length must be at least 1, but is 0"),
				Arguments.of("waiting.max-backoff=200000d", "distlock.waiting.maxBackoff", Duration.ofDays(200_000),
						"distlock.waiting.max-backoff must be between distlock.waiting.initial-backoff (1ms) and "
								+ "106751d, but is 200000d"),
				Arguments.of("locks.stock.wait-time=-1s", "distlock.locks.stock.waitTime", Duration.ofSeconds(-1),
						"distlock.locks.stock.wait-time must be zero or more, but is -1s"),
				Arguments.of("locks.stock.lease-time=0s", "distlock.locks.stock.leaseTime", Duration.ZERO,
						"distlock.locks.stock.lease-time must be between 1ms and 106751d, or -1 to renew the lease "
								+ "while the lock is held, but is 0s"),
				Arguments.of("locks.stock.lease-time=-2", "distlock.locks.stock.leaseTime", Duration.ofMillis(-2),
						"distlock.locks.stock.lease-time must be between 1ms and 106751d, or -1 to renew the lease "
								+ "while the lock is held, but is -2ms"),
				Arguments.of("locks.stock.lease-time=106752d", "distlock.locks.stock.leaseTime",
						Duration.ofDays(106752), "distlock.locks.stock.lease-time must be between 1ms and 106751d"),
				Arguments.of("locks.stock.min-hold-time=-1ms", "distlock.locks.stock.minHoldTime",
						Duration.ofMillis(-1),
						"distlock.locks.stock.min-hold-time must be between 0 and 106751d, but is -1ms"),
				Arguments.of("release=default", "distlock.release", LockRelease.DEFAULT,
						"distlock.release must be on-return or after-transaction"),
				Arguments.of("locks[Stock.work].wait-time=-1s", "distlock.locks[Stock.work].waitTime",
						Duration.ofSeconds(-1),
						"distlock.locks[Stock.work].wait-time must be zero or more, but is -1s"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("valuesOutOfRange")
	void valueOutOfRangeFailsBinding(String property, String field, Object value, String reason) {
		this.runner.withPropertyValues("distlock." + property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(BindValidationException.class);
			BindValidationException failure = (BindValidationException) rootCause(context.getStartupFailure());
			assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
				.isInstanceOfSatisfying(FieldError.class, (error) -> {
					assertThat(error.getObjectName() + "." + error.getField()).isEqualTo(field);
					assertThat(error.getRejectedValue()).isEqualTo(value);
					assertThat(error.getDefaultMessage()).startsWith(reason);
				});
		});
	}

	@Test
	void ackTimeoutUnderOneMillisecondFailsBindingWhenReplicasMustAcknowledge() {
		this.runner
			.withPropertyValues("distlock.replication.min-replicas-acked=1", "distlock.replication.ack-timeout=0ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				BindValidationException failure = (BindValidationException) rootCause(context.getStartupFailure());
				assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
					.extracting((error) -> error.getDefaultMessage())
					.asString()
					.startsWith("distlock.replication.ack-timeout must be between 1ms and 106751d when "
							+ "distlock.replication.min-replicas-acked is set");
			});
	}

	@Test
	void ackTimeoutIsNotCheckedWithoutAcknowledgement() {
		LockTestContexts.withSharedRedis()
			.withPropertyValues("distlock.replication.ack-timeout=0ms")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class));
	}

	@Test
	void replicaAcknowledgementOnAClusterIsRefusedByTheBuilder() {
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> RedisLockClient.builder(new StringRedisTemplate())
				.clusterSlots(true)
				.replicaAcknowledgement(1, Duration.ofMillis(100))
				.build())
			.withMessageContaining("distlock.replication.min-replicas-acked")
			.withMessageContaining("Redis Cluster");
	}

	@Test
	void oldNameOfARenamedPropertyFailsStartupNamingTheNewOne() {
		this.runner.withPropertyValues("distlock.waiting.max-local-hand-offs=5")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("distlock.waiting.max-local-hand-offs was renamed distlock.waiting.max-local-passes: set "
						+ "that instead"));
	}

	@Test
	void defaultKeyLengthIsTheClientBuildersDefault() {
		assertThat(new DistributedLockProperties().getMaxKeyLength())
			.isEqualTo(RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);
	}

	@Test
	void valuesAtTheEdgesStartAWorkingClient() {
		LockTestContexts.withSharedRedis()
			.withPropertyValues("distlock.wait-time=0s", "distlock.lease-time=1ms", "distlock.renewal.lease=3ms",
					"distlock.max-reconnect-delay=0s", "distlock.waiting.max-local-passes=999",
					"distlock.waiting.initial-backoff=1ns", "distlock.waiting.max-backoff=1ns",
					"distlock.locks.edge.programmatic=true", "distlock.locks.edge.wait-time=0s",
					"distlock.locks.edge.lease-time=-1", "distlock.locks.edge.min-hold-time=0s",
					"distlock.locks.short.programmatic=true", "distlock.locks.short.lease-time=1ms")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(RedisLockClient.class);
				RedisLockClient client = context.getBean(RedisLockClient.class);
				assertThat(client.defaultOptions("edge"))
					.isEqualTo(LockOptions.renewing(Duration.ZERO).withName("edge"));
				assertThat(client.defaultOptions("short").leaseTime()).isEqualTo(Duration.ofMillis(1));
			});
	}

	@Test
	void longestValuesStartAWorkingClient() {
		LockTestContexts.withSharedRedis()
			.withPropertyValues("distlock.wait-time=9999999d", "distlock.lease-time=106751d",
					"distlock.renewal.lease=106751d", "distlock.max-reconnect-delay=106751d",
					"distlock.waiting.initial-backoff=106751d", "distlock.waiting.max-backoff=106751d",
					"distlock.locks.longest.programmatic=true", "distlock.locks.longest.wait-time=9999999d",
					"distlock.locks.longest.lease-time=106751d", "distlock.locks.longest.min-hold-time=106751d")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RedisLockClient client = context.getBean(RedisLockClient.class);
				client.lock("longest:" + System.nanoTime()).close();
				client.lock("longest:" + System.nanoTime(), client.defaultOptions("longest")).close();
			});
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
