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

import java.net.URI;
import java.util.UUID;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.sample.SampleApplication;
import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The whole application as its own main class and the jar run it, without the embedded
 * Redis of the development class path (and with {@code lock-test-support}'s classes
 * hidden from the application's class loader, as the jar has none): it locks against a
 * configured Redis, and without one it fails at startup saying what is missing and what
 * to do.
 */
@ExtendWith(OutputCaptureExtension.class)
class WithoutEmbeddedRedisTests {

	private static final String MISSING = "No Redis is configured, and the embedded Redis that the sample starts "
			+ "then is only on the development class path: TestSampleApplication in src/test starts it, with "
			+ "spring-boot:test-run, and the application jar leaves it out.";

	private static final String TO_DO = "Set spring.data.redis.url, spring.data.redis.host or spring.data.redis.port (or "
			+ "spring.data.redis.sentinel.master or spring.data.redis.cluster.nodes) to the Redis to use, or run the "
			+ "sample with ./mvnw -pl sample-app -am spring-boot:test-run, which starts an embedded Redis.";

	private static final UnaryOperator<SpringApplicationBuilder> withoutLockTestSupport = (builder) -> builder
		.resourceLoader(new DefaultResourceLoader(new FilteredClassLoader("dev.distlock.test")));

	@Test
	void locksAgainstTheConfiguredRedis() {
		RedisTestServer redis = RedisTestServers.shared();
		try (SampleInstances instances = TestCluster.start(1, redis, TestDatabase.h2(), withoutLockTestSupport)) {
			ConfigurableApplicationContext context = instances.context(0);
			assertThat(context.getBeanProvider(RedisConfiguredCheck.class).getIfAvailable()).isNotNull();
			assertThat(context.getBeanProvider(RedisServerProcess.class).getIfAvailable()).isNull();
			assertThat(context.getBean(DataRedisConnectionDetails.class).getStandalone().getPort())
				.isEqualTo(redis.port());

			String key = "lock:without-embedded-redis:" + UUID.randomUUID();
			StringRedisTemplate redisTemplate = context.getBean(StringRedisTemplate.class);
			try (LockHandle held = context.getBean(LockClient.class).lock(key)) {
				assertThat(redisTemplate.hasKey(key)).as("held in the configured Redis").isTrue();
			}
			assertThat(redisTemplate.hasKey(key)).as("released").isFalse();

			URI base = instances.baseUri(0);
			assertThat(SampleHttp.put(base, "/skus/61/stock", SampleHttp.stock(3)).statusCode()).isEqualTo(200);
			assertThat(SampleHttp.json(SampleHttp.post(base, "/skus/61/stock/decrement")).path("quantity").asLong())
				.isEqualTo(2);
		}
	}

	@Test
	void withoutAnyRedisStartupFailsWithWhatToDo(CapturedOutput output) {
		SpringApplicationBuilder application = withoutLockTestSupport
			.apply(new SpringApplicationBuilder(SampleApplication.class))
			.web(WebApplicationType.NONE);
		// No spring.data.redis.* at all (spring.data.redis.port alone now configures a
		// Redis on localhost, as Spring Boot connects to it): the check fails while the
		// beans are created, before the context starts anything that connects, so
		// Spring Boot's default localhost:6379 is never reached.
		assertThatException()
			.isThrownBy(() -> application.run("--sample.orders.close-cron=-", "--spring.main.banner-mode=off"))
			.havingRootCause()
			.isInstanceOf(EmbeddedRedisUnavailableException.class)
			.withMessage(MISSING + " " + TO_DO);
		assertThat(output).contains("APPLICATION FAILED TO START", "Description:\n\n" + MISSING, "Action:\n\n" + TO_DO);
	}

}
