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

package dev.distlock.topology.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.redis.RedisLockClient;

import static org.awaitility.Awaitility.await;

/**
 * Starts a small shop application as a user starts theirs, with every auto-configuration
 * on the test class path (Spring Data Redis, distlock) and only the properties given, so
 * that the lock client under test is the one Spring Boot builds from what a user writes:
 * {@code spring.data.redis.cluster.nodes} or {@code spring.data.redis.sentinel.*}, and
 * the {@code distlock.*} settings of the variant.
 */
final class LockApplications {

	private LockApplications() {
	}

	/**
	 * Starts one instance of the application and waits until its lock client is
	 * subscribed to its release channel, if it waits by release messages.
	 * @param connection the properties that connect it to Redis, as {@code name=value}
	 * @param settings further properties, such as the {@code distlock.*} settings
	 * @return the running application; close it after the tests
	 */
	static ConfigurableApplicationContext start(List<String> connection, String... settings) {
		List<String> properties = new ArrayList<>(connection);
		properties.addAll(List.of(settings));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopApplication.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.properties(properties.toArray(String[]::new))
			.run();
		try {
			context.getBean(RedisLockClient.class)
				.monitor()
				.releaseSubscription()
				.ifPresent((subscription) -> await().atMost(Duration.ofSeconds(10)).until(subscription::isSubscribed));
			return context;
		}
		catch (RuntimeException | Error ex) {
			context.close();
			throw ex;
		}
	}

	/**
	 * A user's application: Spring Boot with distlock auto-configured, and a
	 * {@link SkuStock} whose methods are locked per SKU.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ShopApplication {

		@Bean
		SkuStock skuStock(StringRedisTemplate redis) {
			return new SkuStock(redis);
		}

	}

}
