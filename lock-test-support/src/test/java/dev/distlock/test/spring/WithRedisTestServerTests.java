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

import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @SpringBootTest} annotated with {@link WithRedisTestServer} talks to the
 * shared test server, although its properties name another Redis, and the properties
 * themselves are left as they are.
 */
@SpringBootTest(properties = { "spring.data.redis.host=redis.invalid", "spring.data.redis.port=1",
		"spring.data.redis.timeout=2s" })
@WithRedisTestServer
class WithRedisTestServerTests {

	@Autowired
	private StringRedisTemplate redis;

	@Autowired
	private DataRedisConnectionDetails connectionDetails;

	@Autowired
	private Environment environment;

	private final String key = "test:with-redis-test-server:" + UUID.randomUUID();

	@AfterEach
	void deleteKey() {
		this.redis.delete(this.key);
	}

	@Test
	void connectionDetailsNameTheSharedServer() {
		RedisTestServer server = RedisTestServers.shared();
		assertThat(this.connectionDetails.getStandalone().getHost()).isEqualTo(server.host());
		assertThat(this.connectionDetails.getStandalone().getPort()).isEqualTo(server.port());
		assertThat(this.connectionDetails.getPassword()).isNull();
	}

	@Test
	void applicationWritesToTheSharedServer() {
		this.redis.opsForValue().set(this.key, "written by the application");
		assertThat(readFromSharedServer(this.key)).isEqualTo("written by the application");
	}

	@Test
	void propertiesAreLeftAsTheyAre() {
		assertThat(this.environment.getProperty("spring.data.redis.host")).isEqualTo("redis.invalid");
		assertThat(this.environment.getProperty("spring.data.redis.port")).isEqualTo("1");
	}

	static String readFromSharedServer(String key) {
		RedisTestServer server = RedisTestServers.shared();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server.host(), server.port());
		factory.afterPropertiesSet();
		factory.start();
		try {
			StringRedisTemplate template = new StringRedisTemplate(factory);
			return template.opsForValue().get(key);
		}
		finally {
			factory.destroy();
		}
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration(DataRedisAutoConfiguration.class)
	static class RedisApplication {

	}

}
