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

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.LockClient;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.autoconfigure.DistributedLockProperties.Store;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.memory.InMemoryLockClientBuilder;

/**
 * The in-memory lock client, with {@code distlock.store=in-memory}, unless the
 * application defines its own {@link LockClient}: for tests and single-instance
 * development, without Redis. It takes the same {@code distlock.*} settings that apply to
 * it as the Redis client, and reports to the same listeners and observation registry. It
 * says once at startup, as a warning, that its locks are local to this JVM, so that it
 * cannot go unnoticed where Redis was meant.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(LockClient.class)
@ConditionalOnLockStore(Store.IN_MEMORY)
class InMemoryLockClientConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryLockClientConfiguration.class);

	@Bean
	InMemoryLockClient distributedLockClient(DistributedLockProperties properties,
			ObjectProvider<LockListener> listeners, ObjectProvider<ObservationRegistry> observationRegistry) {
		logger.warn("distlock.store=in-memory: locks are local to this JVM and do not exclude other instances; "
				+ "use it for tests and single-instance development only");
		InMemoryLockClientBuilder builder = InMemoryLockClient.builder()
			.keyPrefix(properties.getKeyPrefix())
			.maxKeyLength(properties.getMaxKeyLength())
			.defaultOptions(new LockOptions(properties.getWaitTime(), properties.getLeaseTime(), Duration.ZERO))
			.renewalLease(properties.getRenewal().getLease())
			.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
		properties.getLocks().forEach((name, lock) -> builder.defaultOptions(name, lock::applyTo));
		listeners.orderedStream().forEach(builder::listener);
		return builder.build();
	}

}
