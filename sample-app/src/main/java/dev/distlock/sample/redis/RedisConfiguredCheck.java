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

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertyResolver;

/**
 * Fails the startup with {@link EmbeddedRedisUnavailableException} when the application
 * has no Redis configured, rather than let Spring Boot fall back to
 * {@code localhost:6379}. A Redis is configured when one of
 * {@code spring.data.redis.host}, {@code spring.data.redis.port} (alone it means a Redis
 * on {@code localhost} at that port, as Spring Boot connects to it),
 * {@code spring.data.redis.url}, {@code spring.data.redis.sentinel.master} or
 * {@code spring.data.redis.cluster.nodes} is set to anything but {@code false} (in any
 * property source: a profile's file, an environment variable such as
 * {@code SPRING_DATA_REDIS_HOST}, a command line argument), or when
 * {@code sample.embedded-redis.enabled} is {@code false}: see
 * {@link #redisSetting(PropertyResolver)}.
 * <p>
 * An auto-configuration, so that it backs off when the application brings connection
 * details of its own: the embedded Redis of the development-time
 * {@code TestSampleApplication} ({@code spring-boot:test-run}), which is on the test
 * class path only, or a Testcontainers {@code @ServiceConnection}. It reads the
 * properties when the context starts, not through a condition: the ahead-of-time
 * processed application decides its conditions once, at build time, and the jar is
 * started both with and without a Redis configured. It comes before Spring Boot's Redis
 * auto-configuration and fails before the context starts anything that connects to Redis.
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class)
@ConditionalOnMissingBean(DataRedisConnectionDetails.class)
public final class RedisConfiguredCheck implements InitializingBean {

	private static final List<String> CONNECTION_PROPERTIES = List.of("spring.data.redis.host",
			"spring.data.redis.port", "spring.data.redis.url", "spring.data.redis.sentinel.master",
			"spring.data.redis.cluster.nodes");

	private static final String ENABLED_PROPERTY = "sample.embedded-redis.enabled";

	private final Environment environment;

	RedisConfiguredCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterPropertiesSet() {
		if (redisSetting(this.environment) == null) {
			throw EmbeddedRedisUnavailableException.noRedisConfigured();
		}
	}

	/**
	 * Returns the setting that configures a Redis or turns the embedded one off. The
	 * development-time embedded Redis asks the same question, so that both agree.
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
