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
import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.Delay;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Caps the pause between Lettuce's attempts to reconnect to Redis at
 * {@code distlock.max-reconnect-delay}. Lettuce's own default doubles the pause up to 30
 * seconds, so after a long outage locks could fail for many seconds after Redis was back.
 * Applies to the application's Lettuce client resources as Spring Boot creates them; an
 * application that defines its own {@code ClientResources} bean sets its reconnect delay
 * there. Likewise a connection factory the application builds itself, such as one
 * annotated with
 * {@link DistributedLockConnectionFactory @DistributedLockConnectionFactory}, has the cap
 * only if it is built with Spring Boot's {@code ClientResources} bean.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ ClientResourcesBuilderCustomizer.class, Delay.class })
class LettuceReconnectConfiguration {

	private static final Duration FIRST_DELAY = Duration.ofMillis(10);

	@Bean
	ClientResourcesBuilderCustomizer distributedLockReconnectDelay(DistributedLockProperties properties) {
		Duration max = properties.getMaxReconnectDelay();
		return (builder) -> {
			if (!max.isZero() && !max.isNegative()) {
				// Lettuce's exponential delay needs an upper bound above its lower one.
				builder.reconnectDelay((max.compareTo(FIRST_DELAY) > 0)
						? Delay.exponential(FIRST_DELAY, max, 2, TimeUnit.MILLISECONDS) : Delay.constant(max));
			}
		};
	}

}
