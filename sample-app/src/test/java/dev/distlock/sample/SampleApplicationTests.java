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

package dev.distlock.sample;

import java.net.URI;

import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.sample.redis.EmbeddedRedisConfiguration;
import dev.distlock.sample.redis.RedisConfiguredCheck;
import dev.distlock.sample.stock.StockService;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application as {@code spring-boot:test-run} starts it
 * ({@link TestSampleApplication}), with nothing configured: an embedded Redis and an
 * in-memory H2 database, and every scenario's endpoint working.
 */
class SampleApplicationTests {

	@Test
	void startsWithEmbeddedRedisAndServesEveryScenario() {
		try (ConfigurableApplicationContext context = TestSampleApplication.application()
			.run("--server.port=0", "--sample.orders.close-cron=-", "--spring.main.banner-mode=off")
			.getApplicationContext()) {
			RedisServerProcess embeddedRedis = context.getBean(RedisServerProcess.class);
			assertThat(embeddedRedis.isRunning()).isTrue();
			assertThat(context.getBean(DataRedisConnectionDetails.class).getStandalone().getPort())
				.isEqualTo(embeddedRedis.port());
			assertThat(context.getBeanProvider(RedisConfiguredCheck.class).getIfAvailable())
				.as("backed off: the embedded Redis is configured")
				.isNull();
			Integer port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			URI base = URI.create("http://127.0.0.1:" + port);
			assertThat(SampleHttp.put(base, "/skus/25/stock", SampleHttp.stock(3)).statusCode()).isEqualTo(200);
			assertThat(SampleHttp.json(SampleHttp.post(base, "/skus/25/stock/decrement")).path("quantity").asLong())
				.isEqualTo(2);
			assertThat(SampleHttp.post(base, "/check-in-queue", SampleHttp.checkIn("Ida", "+4930300001", "FEMALE"))
				.statusCode()).isEqualTo(201);
			assertThat(SampleHttp.json(SampleHttp.post(base, "/orders")).path("status").asString()).isEqualTo("UNPAID");
		}
	}

	@Test
	void localRedisProfileTurnsTheEmbeddedRedisOff() {
		// The profile sets spring.data.redis.host; the port is pointed at a test server
		// so that nothing depends on a Redis listening on 6379.
		RedisTestServer redis = RedisTestServers.shared();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class,
				EmbeddedRedisConfiguration.class)
			.web(WebApplicationType.NONE)
			.profiles("local-redis")
			.run("--spring.data.redis.port=" + redis.port(), "--sample.orders.close-cron=-",
					"--spring.main.banner-mode=off")) {
			assertThat(context.getBeanProvider(RedisServerProcess.class).getIfAvailable()).isNull();
			DataRedisConnectionDetails connection = context.getBean(DataRedisConnectionDetails.class);
			assertThat(connection.getStandalone().getHost()).isEqualTo("127.0.0.1");
			assertThat(connection.getStandalone().getPort()).isEqualTo(redis.port());
			assertThat(context.getBean(StockService.class).set(31, 4).quantity()).isEqualTo(4);
		}
	}

}
