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

import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded Redis server: started and used when no Redis is configured, stopped with
 * the context, and absent as soon as the application configures a Redis of its own.
 */
class EmbeddedRedisConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withUserConfiguration(EmbeddedRedisConfiguration.class);

	@Test
	void embeddedServerIsStartedUsedAndStoppedWhenNoRedisIsConfigured() {
		AtomicReference<RedisServerProcess> started = new AtomicReference<>();
		this.runner.run((context) -> {
			RedisServerProcess server = context.getBean(RedisServerProcess.class);
			started.set(server);
			assertThat(server.isRunning()).isTrue();
			assertThat(context.getBean(DataRedisConnectionDetails.class).getStandalone().getPort())
				.isEqualTo(server.port());
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			redis.opsForValue().set("embedded", "yes");
			assertThat(redis.opsForValue().get("embedded")).isEqualTo("yes");
		});
		assertThat(started.get().isRunning()).as("running after the context closed").isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "spring.data.redis.host=redis.example", "spring.data.redis.port=6390",
			"spring.data.redis.url=redis://redis.example:6379", "spring.data.redis.cluster.nodes=redis.example:7000",
			"spring.data.redis.sentinel.master=primary;spring.data.redis.sentinel.nodes=redis.example:26379",
			"sample.embedded-redis.enabled=false" })
	void backsOffWhenRedisIsConfigured(String properties) {
		this.runner.withPropertyValues(properties.split(";")).run((context) -> {
			assertThat(context).doesNotHaveBean(RedisServerProcess.class);
			assertThat(context.getBean(DataRedisConnectionDetails.class))
				.isNotInstanceOf(EmbeddedRedisConfiguration.EmbeddedRedisConnectionDetails.class);
		});
	}

	@Test
	void portAloneIsARedisOnLocalhostAsSpringBootConnectsToIt() {
		this.runner.withPropertyValues("spring.data.redis.port=6390").run((context) -> {
			assertThat(context).doesNotHaveBean(RedisServerProcess.class);
			DataRedisConnectionDetails details = context.getBean(DataRedisConnectionDetails.class);
			assertThat(details.getStandalone().getHost()).isEqualTo("localhost");
			assertThat(details.getStandalone().getPort()).isEqualTo(6390);
		});
	}

}
