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

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.actuate.DistributedLockEndpoint;
import dev.distlock.actuate.ForceReleasingDistributedLockEndpoint;
import dev.distlock.actuate.RedLockEndpoint;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redlock.RedLockClient;

/**
 * Auto-configures the {@code distlock} actuator {@link DistributedLockEndpoint endpoint}
 * of the auto-configured lock client, when the endpoint is available (enabled and
 * exposed). Its force-release operation exists only with
 * {@code distlock.endpoint.force-release.enabled=true}. With
 * {@code distlock.store=redlock} the endpoint is the {@link RedLockEndpoint}: the nodes,
 * how they answered, and the locks this instance holds on them.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
public final class DistributedLockEndpointAutoConfiguration {

	private static final String FORCE_RELEASE = "distlock.endpoint.force-release.enabled";

	/**
	 * The endpoint; a nested class so that Actuator's conditions are only read once
	 * Actuator is known to be on the class path.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(DistributedLockEndpoint.class)
	@ConditionalOnBean(RedisLockClient.class)
	@EnableConfigurationProperties(DistributedLockEndpointProperties.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBooleanProperty(name = FORCE_RELEASE, havingValue = false, matchIfMissing = true)
		DistributedLockEndpoint distributedLockEndpoint(RedisLockClient distributedLockClient) {
			return new DistributedLockEndpoint(distributedLockClient.monitor());
		}

		@Bean
		@ConditionalOnMissingBean(DistributedLockEndpoint.class)
		@ConditionalOnBooleanProperty(FORCE_RELEASE)
		ForceReleasingDistributedLockEndpoint distributedLockForceReleasingEndpoint(
				RedisLockClient distributedLockClient) {
			return new ForceReleasingDistributedLockEndpoint(distributedLockClient.monitor());
		}

	}

	/**
	 * The endpoint of the RedLock client ({@code distlock.store=redlock}): its nodes,
	 * their outcomes and its holds.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnAvailableEndpoint(RedLockEndpoint.class)
	@ConditionalOnBean(RedLockClient.class)
	static class RedLockEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RedLockEndpoint distributedLockRedLockEndpoint(RedLockClient distributedLockClient) {
			return new RedLockEndpoint(distributedLockClient);
		}

	}

}
