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

package dev.distlock.actuate;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code distlock} health indicator goes {@code DOWN} with details while Redis is
 * down and comes back {@code UP}; and the endpoint stays unexposed over HTTP unless it is
 * included. The dedicated Redis server is closed with the application context.
 */
@SpringBootTest(classes = ActuatorTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "management.endpoint.health.show-details=always")
@DirtiesContext
class HealthDownTests {

	private static RedisTestServer server;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		server = RedisTestServers.startDedicated();
		ActuatorTestApplication.redis(registry, server);
	}

	@LocalServerPort
	private int port;

	@Autowired
	private ApplicationContext context;

	@Test
	void endpointIsNotExposedOverHttpUnlessIncluded() {
		ActuatorHttp http = new ActuatorHttp(this.port);
		assertThat(http.get("/actuator/distlock").status()).isEqualTo(404);
		assertThat(http.get("/actuator/health").status()).isEqualTo(200);
		assertThat(this.context.getBeansOfType(DistributedLockEndpoint.class)).isEmpty();
	}

	@Test
	void healthIsDownWhileRedisIsDownAndUpAgainAfterwards() {
		ActuatorHttp http = new ActuatorHttp(this.port);
		await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/actuator/health/distlock").status() == 200);
		server.stop();
		try {
			ActuatorHttp.Response down = http.get("/actuator/health/distlock");
			assertThat(down.status()).isEqualTo(503);
			assertThat(down.<String>json("$.status")).isEqualTo("DOWN");
			assertThat(down.<String>json("$.details.error")).isNotBlank();
			assertThat(down.<String>json("$.details.releaseSubscription.channel"))
				.matches("distlock:released:[0-9a-f]{16}");
		}
		finally {
			server.start();
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> http.get("/actuator/health/distlock").status() == 200);
		ActuatorHttp.Response up = http.get("/actuator/health/distlock");
		assertThat(up.<String>json("$.status")).isEqualTo("UP");
		assertThat(up.<Boolean>json("$.details.releaseSubscription.subscribed")).isTrue();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class DedicatedRedis {

		@Bean(destroyMethod = "close")
		RedisTestServer dedicatedRedisServer() {
			return server;
		}

	}

}
