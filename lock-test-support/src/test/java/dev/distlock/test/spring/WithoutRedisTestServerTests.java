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

package dev.distlock.test.spring;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without {@link WithRedisTestServer}, a {@code @SpringBootTest} connects where its
 * properties say, although the artifact's context customizer factory is on the class
 * path.
 */
@SpringBootTest(properties = { "spring.data.redis.host=redis.invalid", "spring.data.redis.port=1" })
class WithoutRedisTestServerTests {

	@Autowired
	private ApplicationContext context;

	@Test
	void connectionDetailsComeFromTheProperties() {
		DataRedisConnectionDetails details = this.context.getBean(DataRedisConnectionDetails.class);
		assertThat(details).isNotInstanceOf(RedisTestServerConnectionDetails.class);
		assertThat(details.getStandalone().getHost()).isEqualTo("redis.invalid");
		assertThat(details.getStandalone().getPort()).isEqualTo(1);
		assertThat(this.context.containsBean(RedisTestServerContextCustomizer.BEAN_NAME)).isFalse();
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration(DataRedisAutoConfiguration.class)
	static class RedisApplication {

	}

}
