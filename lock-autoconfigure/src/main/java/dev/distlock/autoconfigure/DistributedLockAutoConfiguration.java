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

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.function.SingletonSupplier;

import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockRelease;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.LockDefinitionSource;
import dev.distlock.aop.LockDefinitionValidator;
import dev.distlock.aop.LockKeyEvaluator;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.ReactiveRedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * Auto-configures distlock: a {@link LockClient} on the application's Redis connection
 * (or, with {@code distlock.store=in-memory}, one that keeps locks in memory, or with
 * {@code distlock.store=redlock}, one on a majority of independent masters), with Reactor
 * a {@link ReactiveLockClient} beside the Redis one, and the advisor that locks
 * {@link dev.distlock.DistributedLock @DistributedLock} methods. The client reports
 * observations to the application's {@link ObservationRegistry}, if it has one, and the
 * advisor runs each method inside the observation of its hold. Of several
 * {@link RedisConnectionFactory} beans it uses the one annotated with
 * {@link DistributedLockConnectionFactory @DistributedLockConnectionFactory}, else the
 * {@code @Primary} one.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ RedisConnectionFactory.class, StringRedisTemplate.class })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import({ DistributedLockProxyRegistrar.class, LettuceReconnectConfiguration.class,
		LettuceClusterRefreshConfiguration.class, InMemoryLockClientConfiguration.class,
		RedLockClientConfiguration.class })
public final class DistributedLockAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static SpringBootCompatibilityCheck distributedLockSpringBootCompatibilityCheck() {
		return new SpringBootCompatibilityCheck();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static RenamedPropertiesCheck distributedLockRenamedPropertiesCheck(Environment environment) {
		return new RenamedPropertiesCheck(environment);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockKeyEvaluator distributedLockKeyEvaluator(BeanFactory beanFactory) {
		return new LockKeyEvaluator(beanFactory);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockDefinitionSource distributedLockDefinitionSource(LockKeyEvaluator distributedLockKeyEvaluator,
			Environment environment) {
		return new LockDefinitionSource(distributedLockKeyEvaluator, environment);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor distributedLockAdvisor(LockDefinitionSource distributedLockDefinitionSource,
			LockKeyEvaluator distributedLockKeyEvaluator, ObjectProvider<LockClient> lockClient,
			ObjectProvider<ReactiveLockClient> reactiveLockClient, Environment environment) {
		// Bound here rather than from DistributedLockProperties: advisors are created
		// while
		// bean post-processors are still being registered, too early for a properties
		// bean.
		Binder binder = Binder.get(environment);
		BindResult<Integer> boundOrder = binder.bind("distlock.order", Integer.class);
		int order = boundOrder.isBound() ? boundOrder.get() : DistributedLockAdvisor.DEFAULT_ORDER;
		LockRelease release = binder.bind("distlock.release", LockRelease.class).orElseGet(() -> LockRelease.ON_RETURN);
		boolean interruptOnLeaseLost = binder.bind("distlock.interrupt-on-lease-lost", Boolean.class)
			.orElseGet(() -> Boolean.FALSE);
		DistributedLockInterceptor interceptor = new DistributedLockInterceptor(distributedLockDefinitionSource,
				distributedLockKeyEvaluator, SingletonSupplier.of(lockClient::getObject),
				SingletonSupplier.of(reactiveLockClient::getObject), release, interruptOnLeaseLost);
		return new DistributedLockAdvisor(distributedLockDefinitionSource, interceptor, order);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static LockDefinitionValidator distributedLockDefinitionValidator(
			LockDefinitionSource distributedLockDefinitionSource, ListableBeanFactory beanFactory,
			Environment environment) {
		return new LockDefinitionValidator(distributedLockDefinitionSource, beanFactory,
				() -> MissingLockClientAdvice.advise(beanFactory),
				(method) -> MissingReactiveLockClientAdvice.advise(method, beanFactory, environment));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	LockSettingsCheck distributedLockSettingsCheck(DistributedLockProperties properties,
			LockDefinitionSource distributedLockDefinitionSource, ConfigurableListableBeanFactory beanFactory,
			ObjectProvider<LockClient> lockClient, Environment environment) {
		return new LockSettingsCheck(properties, distributedLockDefinitionSource, beanFactory, lockClient, environment);
	}

	/**
	 * The Redis lock client on the chosen connection factory, with its release
	 * subscription, unless the application defines its own {@link LockClient} or selects
	 * another store.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(LockClient.class)
	@ConditionalOnLockStore(DistributedLockProperties.Store.REDIS)
	@ConditionalOnBean(RedisConnectionFactory.class)
	static class RedisLockClientConfiguration {

		@Bean
		RedisLockClient distributedLockClient(ObjectProvider<RedisConnectionFactory> connectionFactories,
				@DistributedLockConnectionFactory ObjectProvider<RedisConnectionFactory> dedicatedConnectionFactory,
				DistributedLockProperties properties, ObjectProvider<LockListener> listeners,
				ObjectProvider<ObservationRegistry> observationRegistry,
				ObjectProvider<RedisLockClientBuilderCustomizer> customizers) {
			RedisConnectionFactory connectionFactory = LockConnectionFactorySelector.select(dedicatedConnectionFactory,
					connectionFactories);
			StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
			redis.afterPropertiesSet();
			DistributedLockProperties.Waiting waiting = properties.getWaiting();
			RedisLockClientBuilder builder = RedisLockClient.builder(redis)
				.keyPrefix(properties.getKeyPrefix())
				.maxKeyLength(properties.getMaxKeyLength())
				.defaultOptions(new LockOptions(properties.getWaitTime(), properties.getLeaseTime(), Duration.ZERO))
				.renewalLease(properties.getRenewal().getLease())
				.clusterSlots(RedisTopology.isCluster(connectionFactory))
				.waiter(new JitteredBackoffWaiter(waiting.getInitialBackoff(), waiting.getMaxBackoff()))
				.releaseMessages(waiting.isPubSub())
				.maxLocalPasses(waiting.getMaxLocalPasses())
				.replicaAcknowledgement(properties.getReplication().getMinReplicasAcked(),
						properties.getReplication().getAckTimeout())
				.restartQuarantine(restartQuarantine(properties))
				.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
			properties.getLocks().forEach((name, lock) -> builder.defaultOptions(name, lock::applyTo));
			listeners.orderedStream().forEach(builder::listener);
			customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
			return builder.build();
		}

		/**
		 * Returns the restart quarantine the properties ask for: zero when it is off, its
		 * duration, or else the longest lease the properties give.
		 */
		private static Duration restartQuarantine(DistributedLockProperties properties) {
			DistributedLockProperties.RestartQuarantine quarantine = properties.getRestartQuarantine();
			if (!quarantine.isEnabled()) {
				return Duration.ZERO;
			}
			Duration duration = quarantine.getDuration();
			return (duration != null) ? duration : properties.longestConfiguredLease().getValue();
		}

		/**
		 * The reactive lock client, which locks methods returning {@code Mono},
		 * {@code Flux} or {@code CompletionStage}, built on the Redis lock client and a
		 * reactive template on its connection factory. Not with
		 * {@code distlock.replication.min-replicas-acked}: reactive grants cannot wait
		 * for replicas, and reactive locked methods then fail startup instead
		 * ({@link MissingReactiveLockClientAdvice}).
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = "reactor.core.publisher.Mono")
		@ConditionalOnBean(ReactiveRedisConnectionFactory.class)
		@ConditionalOnProperty(name = "distlock.replication.min-replicas-acked", havingValue = "0",
				matchIfMissing = true)
		static class ReactiveRedisLockClientConfiguration {

			@Bean
			@ConditionalOnMissingBean(ReactiveLockClient.class)
			ReactiveRedisLockClient distributedReactiveLockClient(RedisLockClient distributedLockClient,
					ObjectProvider<RedisConnectionFactory> connectionFactories,
					@DistributedLockConnectionFactory ObjectProvider<RedisConnectionFactory> dedicatedConnectionFactory) {
				RedisConnectionFactory connectionFactory = LockConnectionFactorySelector
					.select(dedicatedConnectionFactory, connectionFactories);
				if (!(connectionFactory instanceof ReactiveRedisConnectionFactory reactiveConnectionFactory)) {
					throw new DistributedLockConfigurationException(
							"The connection factory of distlock (" + connectionFactory.getClass().getName()
									+ ") has no reactive API, while another " + "RedisConnectionFactory bean has one",
							"Use Lettuce for distlock's connection, or define a ReactiveLockClient bean");
				}
				return new ReactiveRedisLockClient(distributedLockClient,
						new ReactiveStringRedisTemplate(reactiveConnectionFactory));
			}

		}

	}

}
