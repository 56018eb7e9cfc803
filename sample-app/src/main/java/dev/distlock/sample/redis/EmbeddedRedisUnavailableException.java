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

/**
 * Thrown when the sample needs its embedded Redis, because no Redis is configured or the
 * demo was asked for, and runs from its own main class, as in the application jar: the
 * embedded Redis is only on the development class path, in {@code src/test}, where
 * {@code TestSampleApplication} starts it ({@code spring-boot:test-run}). Spring Boot
 * reports it at startup as a description and an action
 * ({@link EmbeddedRedisUnavailableFailureAnalyzer}).
 */
public class EmbeddedRedisUnavailableException extends IllegalStateException {

	private static final String DEVELOPMENT_ONLY = "is only on the development class path: "
			+ "TestSampleApplication in src/test starts it, with spring-boot:test-run, and the application jar leaves it out.";

	private final String description;

	private final String action;

	private EmbeddedRedisUnavailableException(String description, String action) {
		super(description + " " + action);
		this.description = description;
		this.action = action;
	}

	/**
	 * Creates the exception for an application that configures no Redis.
	 * @return the exception
	 */
	static EmbeddedRedisUnavailableException noRedisConfigured() {
		return new EmbeddedRedisUnavailableException(
				"No Redis is configured, and the embedded Redis that the sample starts then " + DEVELOPMENT_ONLY,
				"Set spring.data.redis.url, spring.data.redis.host or spring.data.redis.port (or "
						+ "spring.data.redis.sentinel.master or "
						+ "spring.data.redis.cluster.nodes) to the Redis to use, or run the sample with "
						+ "./mvnw -pl sample-app -am spring-boot:test-run, which starts an embedded Redis.");
	}

	/**
	 * Creates the exception for the {@code --demo} mode, which always runs on an embedded
	 * Redis.
	 * @return the exception
	 */
	public static EmbeddedRedisUnavailableException forDemo() {
		return new EmbeddedRedisUnavailableException("The demo runs on an embedded Redis, which " + DEVELOPMENT_ONLY,
				"Run the demo with ./mvnw -pl sample-app -am spring-boot:test-run -Dspring-boot.run.arguments=--demo.");
	}

	/**
	 * Returns what is missing.
	 * @return the description
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * Returns what to do about it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
