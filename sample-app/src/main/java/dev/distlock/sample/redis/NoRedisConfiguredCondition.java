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

package dev.distlock.sample.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.PropertyResolver;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when the application configures no Redis of its own: none of
 * {@code spring.data.redis.host}, {@code spring.data.redis.port} (alone it means a Redis
 * on {@code localhost} at that port, as Spring Boot connects to it),
 * {@code spring.data.redis.url}, {@code spring.data.redis.sentinel.master} or
 * {@code spring.data.redis.cluster.nodes} is set to anything but {@code false} (in any
 * property source: a profile's file, an environment variable such as
 * {@code SPRING_DATA_REDIS_HOST}, a command line argument), and
 * {@code sample.embedded-redis.enabled} is not {@code false}.
 * <p>
 * {@link RedisConfiguredCheck} asks the same question when the context starts, through
 * {@link #redisSetting(PropertyResolver)}, so that both agree.
 */
class NoRedisConfiguredCondition extends SpringBootCondition {

	private static final List<String> CONNECTION_PROPERTIES = List.of("spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.url", "spring.data.redis.sentinel.master",
			"spring.data.redis.cluster.nodes");

	private static final String ENABLED_PROPERTY = "sample.embedded-redis.enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("No Redis configured");
		String setting = redisSetting(context.getEnvironment());
		if (setting != null) {
			return ConditionOutcome.noMatch(message.found("property").items(setting));
		}
		return ConditionOutcome.match(message
			.because("none of " + CONNECTION_PROPERTIES + " is set and " + ENABLED_PROPERTY + " is not false"));
	}

	/**
	 * Returns the setting that configures a Redis or turns the embedded one off.
	 * @param properties the application's properties
	 * @return the first of the connection properties that is set, or
	 * {@code sample.embedded-redis.enabled=false}; {@code null} if there is none
	 */
	static @Nullable String redisSetting(PropertyResolver properties) {
		for (String property : CONNECTION_PROPERTIES) {
			String value = properties.getProperty(property);
			if (value != null && !"false".equalsIgnoreCase(value)) {
				return property;
			}
		}
		if ("false".equalsIgnoreCase(properties.getProperty(ENABLED_PROPERTY))) {
			return ENABLED_PROPERTY + "=false";
		}
		return null;
	}

}
