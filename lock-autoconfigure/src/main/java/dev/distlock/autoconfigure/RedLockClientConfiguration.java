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
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.aop.LockDefinitionSource;
import dev.distlock.autoconfigure.DistributedLockProperties.Store;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redlock.ReactiveRedLockClient;
import dev.distlock.redlock.RedLockClient;

/**
 * The RedLock client, with {@code distlock.store=redlock}, unless the application defines
 * its own {@link LockClient}: locks held on a majority of the independent Redis masters
 * of {@code distlock.redlock.nodes}, on connections of its own (the application's
 * {@code spring.data.redis.*} connection is not used). Startup checks each node: a
 * replica, a cluster node or a server listed twice fails startup; a node that does not
 * answer is logged, and fails startup only when fewer than a majority answer. An even
 * number of nodes is warned about. The client reports to the application's
 * {@link LockListener} beans and observation registry, as the Redis client does. A
 * {@code @DistributedLock} method that asks for a shared lock or a minimum hold time
 * fails startup ({@link RedLockDefinitionCheck}). With Reactor, a
 * {@link ReactiveRedLockClient} beside it locks reactive methods on the same nodes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(LockClient.class)
@ConditionalOnLockStore(Store.REDLOCK)
@ConditionalOnClass(name = "io.lettuce.core.RedisClient")
class RedLockClientConfiguration {

	private static final Log logger = LogFactory.getLog(RedLockClientConfiguration.class);

	/** How long startup waits for each node's answers to ROLE and INFO. */
	private static final Duration STARTUP_CHECK_TIMEOUT = Duration.ofSeconds(2);

	@Bean
	RedLockDefinitionCheck distributedLockRedLockDefinitionCheck(LockDefinitionSource distributedLockDefinitionSource,
			ConfigurableListableBeanFactory beanFactory, ObjectProvider<LockClient> lockClient) {
		return new RedLockDefinitionCheck(distributedLockDefinitionSource, beanFactory, lockClient);
	}

	@Bean(destroyMethod = "close")
	RedLockClient distributedLockClient(DistributedLockProperties properties, ObjectProvider<LockListener> listeners,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		DistributedLockProperties.RedLock redlock = properties.getRedlock();
		if (redlock.getNodes().size() % 2 == 0) {
			logger.warn("distlock.redlock.nodes lists " + redlock.getNodes().size() + " nodes: an even number "
					+ "tolerates no more failed nodes than " + (redlock.getNodes().size() - 1)
					+ " would; an odd number is recommended");
		}
		RedLockClient.Builder builder = RedLockClient.builder(redlock.getNodes())
			.keyPrefix(properties.getKeyPrefix())
			.maxKeyLength(properties.getMaxKeyLength())
			.defaultOptions(new LockOptions(properties.getWaitTime(), properties.getLeaseTime(), Duration.ZERO))
			.renewalLease(properties.getRenewal().getLease())
			.nodeTimeout(redlock.getNodeTimeout())
			.driftMargin(redlock.getDriftMargin())
			.appendfsyncAlways(redlock.isAppendfsyncAlways())
			.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
		listeners.orderedStream().forEach(builder::listener);
		properties.getLocks().forEach((name, lock) -> builder.defaultOptions(name, lock::applyTo));
		RedLockClient client = builder.build();
		try {
			client.checkNodes(STARTUP_CHECK_TIMEOUT);
		}
		catch (DistributedLockConfigurationException ex) {
			client.close();
			throw ex;
		}
		return client;
	}

	/**
	 * The reactive RedLock client, which locks methods returning {@code Mono},
	 * {@code Flux} or {@code CompletionStage} (and Kotlin {@code suspend} functions) on
	 * the same nodes and holds as the RedLock client, when Reactor is on the class path.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.publisher.Mono")
	static class ReactiveRedLockClientConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(ReactiveLockClient.class)
		ReactiveRedLockClient distributedReactiveLockClient(RedLockClient distributedLockClient) {
			return new ReactiveRedLockClient(distributedLockClient);
		}

	}

}
