package dev.distlock.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.actuate.RedLockHealthIndicator;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redlock.RedLockClient;

/**
 * Auto-configures the {@code distlock} {@link DistributedLockHealthIndicator health
 * indicator} of the auto-configured lock client, whose Redis checks wait at most
 * {@code distlock.health.timeout}, unless
 * {@code management.health.distlock.enabled=false}.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
public final class DistributedLockHealthContributorAutoConfiguration {

	/**
	 * The indicator; a nested class so that the health module's condition is only read
	 * once the module is known to be on the class path.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(RedisLockClient.class)
	@ConditionalOnEnabledHealthIndicator("distlock")
	@EnableConfigurationProperties(DistributedLockHealthProperties.class)
	static class HealthIndicatorConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "distlockHealthIndicator")
		DistributedLockHealthIndicator distlockHealthIndicator(RedisLockClient distributedLockClient,
				DistributedLockHealthProperties properties) {
			return new DistributedLockHealthIndicator(distributedLockClient.monitor(), properties.getTimeout());
		}

	}

	/**
	 * The indicator of the RedLock nodes, with {@code distlock.store=redlock}.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(RedLockClient.class)
	@ConditionalOnEnabledHealthIndicator("distlock")
	@EnableConfigurationProperties(DistributedLockHealthProperties.class)
	static class RedLockHealthIndicatorConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "distlockHealthIndicator")
		RedLockHealthIndicator distlockHealthIndicator(RedLockClient distributedLockClient,
				DistributedLockHealthProperties properties) {
			return new RedLockHealthIndicator(distributedLockClient, properties.getTimeout());
		}

	}

}
