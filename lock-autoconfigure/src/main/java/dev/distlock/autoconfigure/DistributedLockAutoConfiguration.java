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
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.function.SingletonSupplier;

import dev.distlock.LockClient;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.LockDefinitionSource;
import dev.distlock.aop.LockDefinitionValidator;
import dev.distlock.aop.LockKeyEvaluator;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * Auto-configures distlock: a {@link LockClient} on the application's Redis connection
 * (or, with {@code distlock.store=in-memory}, one that keeps locks in memory), and the
 * advisor that locks {@link dev.distlock.DistributedLock @DistributedLock} methods. The
 * client reports observations to the application's {@link ObservationRegistry}, if it has
 * one, and the advisor runs each method inside the observation of its hold. Of several
 * {@link RedisConnectionFactory} beans it uses the one annotated with
 * {@link DistributedLockConnectionFactory @DistributedLockConnectionFactory}, else the
 * {@code @Primary} one.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ RedisConnectionFactory.class, StringRedisTemplate.class })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import({ DistributedLockProxyRegistrar.class, LettuceReconnectConfiguration.class,
		LettuceClusterRefreshConfiguration.class, InMemoryLockClientConfiguration.class })
public final class DistributedLockAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static SpringBootCompatibilityCheck distributedLockSpringBootCompatibilityCheck() {
		return new SpringBootCompatibilityCheck();
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
		BindResult<Integer> boundOrder = Binder.get(environment).bind("distlock.order", Integer.class);
		int order = boundOrder.isBound() ? boundOrder.get() : DistributedLockAdvisor.DEFAULT_ORDER;
		DistributedLockInterceptor interceptor = new DistributedLockInterceptor(distributedLockDefinitionSource,
				distributedLockKeyEvaluator, SingletonSupplier.of(lockClient::getObject),
				reactiveLockClient::getIfAvailable);
		return new DistributedLockAdvisor(distributedLockDefinitionSource, interceptor, order);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static LockDefinitionValidator distributedLockDefinitionValidator(
			LockDefinitionSource distributedLockDefinitionSource, ListableBeanFactory beanFactory) {
		return new LockDefinitionValidator(distributedLockDefinitionSource, beanFactory,
				() -> MissingLockClientAdvice.advise(beanFactory));
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
				.observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
			properties.getLocks().forEach((name, lock) -> builder.defaultOptions(name, lock::applyTo));
			listeners.orderedStream().forEach(builder::listener);
			customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
			return builder.build();
		}

	}

}
