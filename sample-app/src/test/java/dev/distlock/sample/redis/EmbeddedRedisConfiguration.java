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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import dev.distlock.test.redis.RedisServerProcess;

/**
 * Starts a real {@code redis-server} process on a free port of {@code 127.0.0.1} when the
 * application has no Redis configured, and points Spring Data Redis at it through a
 * {@link DataRedisConnectionDetails} bean, which Spring Boot's Redis auto-configuration
 * prefers to the {@code spring.data.redis.*} connection properties. The server stops when
 * the context closes.
 * <p>
 * The binary is the {@code redis-server} on the {@code PATH}, or else the one shipped in
 * the {@code com.github.codemonstur:embedded-redis} artifact, so nothing has to be
 * installed. See {@link NoRedisConfiguredCondition} for what turns this off.
 * <p>
 * A development-time service, as Spring Boot runs Testcontainers at development time: it
 * lives in {@code src/test}, with the {@code embedded-redis} binaries in the test scope,
 * and {@link dev.distlock.sample.TestSampleApplication} adds it to the application
 * ({@code spring-boot:test-run}) and the tests that want it add it. Its connection
 * details make {@link RedisConfiguredCheck}, which requires a configured Redis otherwise,
 * back off. Not a {@code @Configuration}, so that the component scan of the tests that
 * start {@code SampleApplication} with a {@code SpringApplicationBuilder}, where no
 * {@code TestTypeExcludeFilter} leaves out a {@code @TestConfiguration}, never picks it
 * up: it is only where it is named.
 */
@Conditional(NoRedisConfiguredCondition.class)
public class EmbeddedRedisConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedRedisConfiguration.class);

	@Bean(destroyMethod = "close")
	RedisServerProcess embeddedRedisServer() {
		RedisServerProcess server = RedisServerProcess.startOnFreePort();
		logger.info("Started an embedded Redis server at {}; set spring.data.redis.host, spring.data.redis.port or "
				+ "spring.data.redis.url to use another Redis", server.url());
		return server;
	}

	@Bean
	DataRedisConnectionDetails embeddedRedisConnectionDetails(RedisServerProcess embeddedRedisServer) {
		return new EmbeddedRedisConnectionDetails(embeddedRedisServer.host(), embeddedRedisServer.port());
	}

	/**
	 * Connection details of the embedded server: a standalone Redis without credentials.
	 *
	 * @param host the host the server listens on
	 * @param port the port the server listens on
	 */
	record EmbeddedRedisConnectionDetails(String host, int port) implements DataRedisConnectionDetails {

		@Override
		public Standalone getStandalone() {
			return Standalone.of(this.host, this.port);
		}

	}

}
