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

package dev.distlock.sample.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.springframework.boot.builder.SpringApplicationBuilder;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.test.redis.RedisTestServer;

/**
 * Starts instances of the sample application for a test: all on the given Redis server
 * and database, with the scheduled job off unless a test turns it on, and short Redis
 * timeouts.
 */
public final class TestCluster {

	private TestCluster() {
	}

	/**
	 * Starts instances.
	 * @param count how many instances
	 * @param redis the Redis server they share
	 * @param database the database they share
	 * @param arguments further command line arguments, which override the defaults
	 * @return the running instances
	 */
	public static SampleInstances start(int count, RedisTestServer redis, TestDatabase database, String... arguments) {
		return start(count, redis, database, UnaryOperator.identity(), arguments);
	}

	/**
	 * Starts instances with extra sources or initializers.
	 * @param count how many instances
	 * @param redis the Redis server they share
	 * @param database the database they share
	 * @param customizer adds sources and initializers to each instance's builder
	 * @param arguments further command line arguments, which override the defaults
	 * @return the running instances
	 */
	public static SampleInstances start(int count, RedisTestServer redis, TestDatabase database,
			UnaryOperator<SpringApplicationBuilder> customizer, String... arguments) {
		// Spring joins repeated command line options with commas, so later ones replace
		// earlier ones here.
		Map<String, String> options = new LinkedHashMap<>();
		Stream
			.of(List.of("--spring.data.redis.url=" + redis.url(), "--spring.data.redis.timeout=1s",
					"--spring.data.redis.connect-timeout=1s", "--sample.orders.close-cron=-",
					"--spring.main.banner-mode=off"), database.arguments(), List.of(arguments))
			.flatMap(List::stream)
			.forEach((option) -> options.put(option.substring(0, option.indexOf('=')), option));
		List<String> all = new ArrayList<>(options.values());
		return SampleInstances.start(count, customizer, all);
	}

}
