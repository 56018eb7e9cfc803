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

import org.springframework.boot.SpringApplication;

import dev.distlock.sample.demo.DemoLauncher;
import dev.distlock.sample.redis.EmbeddedRedisConfiguration;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * The sample as a developer runs it, with a Redis of its own: the development-time
 * counterpart of {@link SampleApplication}, on the test class path, as Spring Boot runs
 * Testcontainers at development time.
 * {@code ./mvnw -pl sample-app -am spring-boot:test-run} starts it (the plugin's
 * {@code test-run} goal prefers a main class of the test classes).
 * <p>
 * It runs {@link SampleApplication#main(String[])} with
 * {@link EmbeddedRedisConfiguration}, which starts an embedded Redis when no Redis is
 * configured. With {@code --demo} it starts an embedded Redis and runs
 * {@link DemoLauncher the demo} on it instead, and exits with the demo's status.
 */
public final class TestSampleApplication {

	/**
	 * The logging configuration of the run: Spring Boot's console logging at
	 * {@code INFO}, as the application jar logs, rather than the tests'
	 * {@code logback-test.xml}, which is on the same class path and logs warnings only. A
	 * {@code logging.config} of the run's own (system property or environment variable)
	 * takes its place.
	 */
	static final String LOGGING_CONFIG = "classpath:logback-test-run.xml";

	private TestSampleApplication() {
	}

	/**
	 * Starts the sample with an embedded Redis, or the demo when the arguments contain
	 * {@code --demo}.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		if (System.getProperty("logging.config") == null && System.getenv("LOGGING_CONFIG") == null) {
			System.setProperty("logging.config", LOGGING_CONFIG);
		}
		if (DemoLauncher.isRequested(args)) {
			System.exit(runDemo(args));
		}
		application().run(args);
	}

	/**
	 * Returns the application that {@link #main(String[])} runs.
	 * @return {@link SampleApplication} with {@link EmbeddedRedisConfiguration}
	 */
	static SpringApplication.Augmented application() {
		return SpringApplication.from(SampleApplication::main).with(EmbeddedRedisConfiguration.class);
	}

	private static int runDemo(String[] args) {
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			return DemoLauncher.run(args, redis.url());
		}
	}

}
