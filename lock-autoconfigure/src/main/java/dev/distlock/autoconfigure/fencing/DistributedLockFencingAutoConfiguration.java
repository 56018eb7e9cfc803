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

package dev.distlock.autoconfigure.fencing;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.distlock.fencing.FencedJdbc;
import dev.distlock.fencing.FencedRedis;
import dev.distlock.fencing.FencedWriteListener;
import dev.distlock.observation.FencedWriteMetrics;

/**
 * Auto-configures fenced writes: {@link FencedJdbc} when the application has spring-jdbc
 * and one {@link DataSource}, {@link FencedRedis} when it has one
 * {@link StringRedisTemplate} (the data's Redis, which Spring Boot configures from
 * {@code spring.data.redis.*}), and, with a Micrometer {@link MeterRegistry}, the counter
 * of refused writes that both report to.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
		"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
public final class DistributedLockFencingAutoConfiguration {

	private static FencedWriteListener listener(ObjectProvider<FencedWriteListener> listeners) {
		return (refusal) -> listeners.orderedStream().forEach((listener) -> listener.refused(refusal));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(JdbcTemplate.class)
	@ConditionalOnSingleCandidate(DataSource.class)
	static class JdbcFencingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FencedJdbc fencedJdbc(DataSource dataSource, ObjectProvider<JdbcTemplate> jdbcTemplate,
				ObjectProvider<FencedWriteListener> listeners) {
			return new FencedJdbc(jdbcTemplate.getIfUnique(() -> new JdbcTemplate(dataSource)), listener(listeners));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(StringRedisTemplate.class)
	@ConditionalOnSingleCandidate(StringRedisTemplate.class)
	static class RedisFencingConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FencedRedis fencedRedis(StringRedisTemplate redis, ObjectProvider<FencedWriteListener> listeners) {
			return new FencedRedis(redis, listener(listeners));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class FencingMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FencedWriteMetrics fencedWriteMetrics(MeterRegistry meterRegistry) {
			return new FencedWriteMetrics(meterRegistry);
		}

	}

}
