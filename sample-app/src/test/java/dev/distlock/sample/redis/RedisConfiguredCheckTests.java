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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check of the application's own main class, which has no embedded Redis: it requires
 * a configured Redis, recognised by the same properties that turn the development-time
 * embedded Redis off, and backs off where the embedded Redis runs.
 */
class RedisConfiguredCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisConfiguredCheck.class, DataRedisAutoConfiguration.class));

	@Test
	void failsWhenNoRedisIsConfigured() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(EmbeddedRedisUnavailableException.class)
				.hasMessageStartingWith("No Redis is configured, and the embedded Redis that the sample starts then "
						+ "is only on the development class path");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "spring.data.redis.host=redis.example", "spring.data.redis.port=6390",
			"spring.data.redis.url=redis://redis.example:6379", "spring.data.redis.cluster.nodes=redis.example:7000",
			"spring.data.redis.sentinel.master=primary;spring.data.redis.sentinel.nodes=redis.example:26379",
			"sample.embedded-redis.enabled=false" })
	void passesWhenRedisIsConfigured(String properties) {
		this.runner.withPropertyValues(properties.split(";")).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RedisConfiguredCheck.class);
		});
	}

	@Test
	void backsOffWhereTheEmbeddedRedisRuns() {
		this.runner.withUserConfiguration(EmbeddedRedisConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(RedisConfiguredCheck.class);
			assertThat(context).hasSingleBean(RedisServerProcess.class);
		});
	}

	@Test
	void embeddedRedisAndCheckAgreeWhenRedisIsConfigured() {
		this.runner.withUserConfiguration(EmbeddedRedisConfiguration.class)
			.withPropertyValues("spring.data.redis.url=redis://redis.example:6379")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(RedisConfiguredCheck.class);
				assertThat(context).doesNotHaveBean(RedisServerProcess.class);
			});
	}

}
