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

import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Whether the embedded Redis can be started: it is {@value #SERVER_CLASS}, from
 * {@code dev.distlock:lock-test-support}, a development-only dependency of the sample.
 * {@code spring-boot:run} and the tests have it on their class path; the application jar
 * leaves it out, and then a Redis must be configured.
 * <p>
 * The application's classes ask here, or through a class condition on
 * {@link #SERVER_CLASS}, before they touch it: only {@link EmbeddedRedisConfiguration}
 * and the demo's {@code DemoRedisServer} refer to it, and nothing loads them without it.
 */
public final class EmbeddedRedisAvailability {

	/**
	 * Name of the class that runs the embedded {@code redis-server} process.
	 */
	public static final String SERVER_CLASS = "dev.distlock.test.redis.RedisServerProcess";

	private EmbeddedRedisAvailability() {
	}

	/**
	 * Whether the embedded Redis is on a class path.
	 * @param classLoader the class loader to look in, {@code null} for the default one
	 * @return whether {@link #SERVER_CLASS} can be loaded
	 */
	public static boolean isAvailable(@Nullable ClassLoader classLoader) {
		return ClassUtils.isPresent(SERVER_CLASS, classLoader);
	}

}
