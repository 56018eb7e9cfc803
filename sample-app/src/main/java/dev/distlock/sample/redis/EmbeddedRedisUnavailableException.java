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
 * demo was asked for, and {@link EmbeddedRedisAvailability the embedded Redis} is not on
 * the class path, as in the application jar. Spring Boot reports it at startup as a
 * description and an action ({@link EmbeddedRedisUnavailableFailureAnalyzer}).
 */
public class EmbeddedRedisUnavailableException extends IllegalStateException {

	private static final String NOT_ON_CLASS_PATH = "is not on the class path: "
			+ EmbeddedRedisAvailability.SERVER_CLASS
			+ ", from dev.distlock:lock-test-support, a development-only dependency that the application jar leaves out.";

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
				"No Redis is configured, and the embedded Redis that the sample starts then " + NOT_ON_CLASS_PATH,
				"Set spring.data.redis.url, spring.data.redis.host or spring.data.redis.port (or "
						+ "spring.data.redis.sentinel.master or "
						+ "spring.data.redis.cluster.nodes) to the Redis to use, or run the sample with "
						+ "./mvnw -pl sample-app -am spring-boot:run, which starts an embedded Redis.");
	}

	/**
	 * Creates the exception for the {@code --demo} mode, which always runs on an embedded
	 * Redis.
	 * @return the exception
	 */
	public static EmbeddedRedisUnavailableException forDemo() {
		return new EmbeddedRedisUnavailableException("The demo runs on an embedded Redis, which " + NOT_ON_CLASS_PATH,
				"Run the demo with ./mvnw -pl sample-app -am spring-boot:run -Dspring-boot.run.arguments=--demo.");
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
