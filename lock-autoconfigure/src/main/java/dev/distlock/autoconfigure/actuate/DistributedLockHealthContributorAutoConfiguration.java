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
