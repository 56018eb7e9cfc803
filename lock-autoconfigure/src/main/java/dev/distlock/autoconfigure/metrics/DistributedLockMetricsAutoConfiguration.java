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
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.distlock.observation.LockMetrics;
import dev.distlock.redlock.RedLockNodeMetrics;
import dev.distlock.redlock.RedLockClient;

/**
 * Auto-configures the {@link LockMetrics meters} of distributed locks when the
 * application has a Micrometer {@link MeterRegistry}: a listener that the auto-configured
 * lock client reports to. Each lock timer is recorded once: by the application's
 * {@link ObservationRegistry}, from the lock observations, where it records observations
 * as timers (as Spring Boot does with a {@link MeterRegistry}); else by the listener,
 * with the same names and tags. With {@code distlock.store=redlock}, also the
 * {@link RedLockNodeMetrics per-node counter} of the RedLock nodes.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
public final class DistributedLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetrics distributedLockMetrics(MeterRegistry meterRegistry,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<MeterObservationHandler<?>> meterObservationHandlers, Environment environment) {
		return new LockMetrics(meterRegistry,
				TimedLockObservations.find(observationRegistry, meterObservationHandlers, environment));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnClass(name = "io.lettuce.core.RedisClient")
	RedLockNodeMetricsBinder distributedLockRedLockNodeMetrics(ObjectProvider<RedLockClient> redLockClient) {
		return new RedLockNodeMetricsBinder(redLockClient);
	}

	/**
	 * Binds {@link RedLockNodeMetrics} when the application has a {@link RedLockClient}
	 * ({@code distlock.store=redlock}); binds nothing otherwise. Looked up when the
	 * registry binds, after the client exists, so it needs no ordering against the lock
	 * client's configuration.
	 */
	static final class RedLockNodeMetricsBinder implements MeterBinder {

		private final ObjectProvider<RedLockClient> redLockClient;

		RedLockNodeMetricsBinder(ObjectProvider<RedLockClient> redLockClient) {
			this.redLockClient = redLockClient;
		}

		@Override
		public void bindTo(MeterRegistry registry) {
			this.redLockClient.ifUnique((client) -> new RedLockNodeMetrics(client).bindTo(registry));
		}

	}

}
