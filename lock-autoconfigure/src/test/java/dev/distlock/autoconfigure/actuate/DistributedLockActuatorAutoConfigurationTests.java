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

package dev.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockEndpoint;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.actuate.ForceReleasingDistributedLockEndpoint;
import dev.distlock.autoconfigure.metrics.DistributedLockMetricsAutoConfiguration;
import dev.distlock.observation.LockMetrics;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockEndpointAutoConfiguration} and
 * {@link DistributedLockHealthContributorAutoConfiguration}.
 */
class DistributedLockActuatorAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withConfiguration(AutoConfigurations.of(DistributedLockEndpointAutoConfiguration.class,
				DistributedLockHealthContributorAutoConfiguration.class,
				DistributedLockMetricsAutoConfiguration.class));

	@Test
	void endpointIsCreatedWhenExposedWithoutForceRelease() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=distlock").run((context) -> {
			assertThat(context).hasSingleBean(DistributedLockEndpoint.class)
				.doesNotHaveBean(ForceReleasingDistributedLockEndpoint.class);
			assertThat(context.getBean(DistributedLockEndpoint.class).locks().locks()).isEmpty();
		});
	}

	@Test
	void forceReleaseIsOfferedOnlyWhenEnabled() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=distlock",
					"distlock.endpoint.force-release.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(DistributedLockEndpoint.class)
				.getBean(DistributedLockEndpoint.class)
				.isInstanceOf(ForceReleasingDistributedLockEndpoint.class));
	}

	@Test
	void endpointIsNotCreatedUnlessExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class));
	}

	@Test
	void endpointIsNotCreatedWithoutAccess() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=distlock",
					"management.endpoint.distlock.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(DistributedLockEndpoint.class));
	}

	@Test
	void healthIndicatorIsNamedDistlock() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(DistributedLockHealthIndicator.class).hasBean("distlockHealthIndicator");
			assertThat(context.getBean(DistributedLockHealthIndicator.class).health().getStatus()).isIn(Status.UP,
					Status.DOWN);
		});
	}

	@Test
	void healthIndicatorCanBeDisabled() {
		this.runner.withPropertyValues("management.health.distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HealthIndicator.class));
	}

	@Test
	void backsOffWithoutActuatorOnTheClassPath() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=distlock")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockEndpoint.class);
				context.getBean(LockClient.class).lock(TestRedis.uniqueKey("no-actuator")).release();
			});
	}

	@Test
	void backsOffWithoutSpringBootHealthOnTheClassPath() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockHealthIndicator.class));
	}

	@Test
	void nothingIsAddedWithoutActuatorHealthOrMicrometer() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=distlock")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate",
					"org.springframework.boot.health", "io.micrometer.core"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(DistributedLockEndpoint.class)
					.doesNotHaveBean(DistributedLockHealthIndicator.class)
					.doesNotHaveBean(LockMetrics.class)
					.doesNotHaveBean(DistributedLockEndpointProperties.class);
				context.getBean(LockClient.class).lock(TestRedis.uniqueKey("plain")).release();
			});
	}

	@Test
	void backsOffWithoutTheRedisLockClient() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=distlock")
			.withBean(LockClient.class, UserLockClient::new)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(RedisLockClient.class)
				.doesNotHaveBean(DistributedLockEndpoint.class)
				.doesNotHaveBean(DistributedLockHealthIndicator.class));
	}

	/**
	 * A lock client of the application's own, which distlock cannot look into.
	 */
	static class UserLockClient implements LockClient {

		@Override
		public LockOptions defaultOptions() {
			return LockOptions.renewing(Duration.ofSeconds(1));
		}

		@Override
		public Optional<LockHandle> tryLock(String key, LockOptions options) {
			throw new UnsupportedOperationException("not used");
		}

		@Override
		public LockHandle lock(String key, LockOptions options) {
			throw new UnsupportedOperationException("not used");
		}

	}

}
