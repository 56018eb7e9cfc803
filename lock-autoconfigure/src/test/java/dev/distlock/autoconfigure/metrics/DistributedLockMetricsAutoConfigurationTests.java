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

package dev.distlock.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.observation.LockMetrics;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockMetricsAutoConfiguration}.
 */
class DistributedLockMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withConfiguration(AutoConfigurations.of(DistributedLockMetricsAutoConfiguration.class));

	@Test
	void locksAreMeteredInTheApplicationsRegistry() {
		this.runner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(LockMetrics.class);
				context.getBean(LockClient.class).lock(TestRedis.uniqueKey("metered")).release();
				assertThat(context.getBean(MeterRegistry.class).get(LockMetrics.ACQUISITION).timer().count())
					.isEqualTo(1);
			});
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(LockMetrics.class));
	}

	@Test
	void backsOffWithoutMicrometerOnTheClassPath() {
		this.runner.withBean(SimpleMeterRegistry.class)
			.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LockMetrics.class);
				context.getBean(LockClient.class).lock(TestRedis.uniqueKey("unmetered")).release();
			});
	}

	@Test
	void backsOffWhenDistlockIsDisabled() {
		this.runner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockMetrics.class));
	}

	@Test
	void backsOffWhenTheUserDefinesLockMetrics() {
		this.runner.withBean(SimpleMeterRegistry.class)
			.withBean("customLockMetrics", LockMetrics.class, () -> new LockMetrics(new SimpleMeterRegistry()))
			.run((context) -> assertThat(context).hasSingleBean(LockMetrics.class).hasBean("customLockMetrics"));
	}

}
