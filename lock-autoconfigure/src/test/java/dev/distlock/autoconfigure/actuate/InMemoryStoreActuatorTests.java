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

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.actuate.DistributedLockEndpoint;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.autoconfigure.metrics.DistributedLockMetricsAutoConfiguration;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.observation.LockMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with Actuator and Micrometer and {@code distlock.store=in-memory}, but
 * no Redis: the {@code distlock} endpoint and health indicator, which describe a Redis
 * client, back off without failing the application, and the meters record the in-memory
 * client's locks.
 */
class InMemoryStoreActuatorTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class,
				DistributedLockEndpointAutoConfiguration.class, DistributedLockHealthContributorAutoConfiguration.class,
				DistributedLockMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("distlock.store=in-memory", "management.endpoints.web.exposure.include=distlock");

	@Test
	void endpointAndHealthIndicatorBackOffAndMetersRecordTheLocks() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(InMemoryLockClient.class)
				.doesNotHaveBean(DistributedLockEndpoint.class)
				.doesNotHaveBean(DistributedLockHealthIndicator.class)
				.hasSingleBean(LockMetrics.class);
			context.getBean(LockClient.class).lock("metered").release();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(LockMetrics.ACQUISITION).timer().count()).isEqualTo(1);
			assertThat(registry.get(LockMetrics.HOLD).timer().count()).isEqualTo(1);
		});
	}

}
