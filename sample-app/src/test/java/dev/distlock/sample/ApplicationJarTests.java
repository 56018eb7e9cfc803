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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.util.TestSocketUtils;

import dev.distlock.sample.support.SampleHttp;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repackaged application jar, run with {@code java -jar} as in production, on the JVM
 * and ahead-of-time processed ({@code -Dspring.aot.enabled=true}): it holds none of the
 * development-only dependencies, serves against a configured Redis, and without one, or
 * with {@code --demo}, stops at startup saying what is missing and what to do. Failsafe
 * runs these tests, after {@code repackage} ({@code ./mvnw -pl sample-app -am verify});
 * Surefire, which runs before it, leaves them out.
 */
class ApplicationJarTests {

	private static final List<String> DEVELOPMENT_ONLY = List.of("lock-test-support-", "embedded-redis-",
			"spring-test-", "testcontainers-", "junit-", "assertj-");

	private static final String NO_REDIS = "No Redis is configured, and the embedded Redis that the sample starts "
			+ "then is only on the development class path: TestSampleApplication in src/test starts it, with "
			+ "spring-boot:test-run, and the application jar leaves it out.";

	private static final String CONFIGURE_REDIS = "Set spring.data.redis.url, spring.data.redis.host or spring.data.redis.port (or "
			+ "spring.data.redis.sentinel.master or spring.data.redis.cluster.nodes) to the Redis to use, or run the "
			+ "sample with ./mvnw -pl sample-app -am spring-boot:test-run, which starts an embedded Redis.";

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

	private static Path jar;

	@TempDir
	private Path logs;

	@BeforeAll
	static void findJar() {
		jar = Path.of(System.getProperty("distlock.sample.jar", "target/sample-app-0.1.0-SNAPSHOT.jar"));
		assertThat(jar).as("repackaged by ./mvnw -pl sample-app -am verify").isRegularFile();
	}

	@Test
	void leavesTheDevelopmentOnlyDependenciesOut() throws IOException {
		List<String> libraries;
		try (JarFile file = new JarFile(jar.toFile())) {
			libraries = file.stream()
				.map(JarEntry::getName)
				.filter((name) -> name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar"))
				.map((name) -> name.substring("BOOT-INF/lib/".length()))
				.toList();
		}
		assertThat(libraries).as("what the application needs")
			.anyMatch((library) -> library.startsWith("lock-autoconfigure-"))
			.anyMatch((library) -> library.startsWith("lettuce-core-"))
			.anyMatch((library) -> library.startsWith("h2-"));
		assertThat(libraries).as("development-only libraries in the jar")
			.filteredOn((library) -> DEVELOPMENT_ONLY.stream().anyMatch(library::startsWith))
			.isEmpty();
	}

	@ParameterizedTest(name = "spring.aot.enabled={0}")
	@ValueSource(booleans = { false, true })
	void servesAgainstTheConfiguredRedis(boolean aot) throws Exception {
		RedisTestServer redis = RedisTestServers.shared();
		int port = TestSocketUtils.findAvailableTcpPort();
		Path log = this.logs.resolve("application.log");
		Process application = start(log, aot, "--spring.data.redis.url=" + redis.url(), "--server.port=" + port,
				"--sample.orders.close-cron=-");
		try {
			URI base = URI.create("http://127.0.0.1:" + port);
			awaitHealthy(application, base, log);
			long sku = Math.floorMod(UUID.randomUUID().getLeastSignificantBits(), 1_000_000L) + 1_000_000L;
			assertThat(SampleHttp.put(base, "/skus/" + sku + "/stock", SampleHttp.stock(3)).statusCode())
				.isEqualTo(200);
			assertThat(SampleHttp.json(SampleHttp.post(base, "/skus/" + sku + "/stock/decrement"))
				.path("quantity")
				.asLong()).isEqualTo(2);
			assertThat(valueIn(redis, "stock:sku:" + sku)).as("written to the configured Redis").isEqualTo("2");
		}
		finally {
			application.destroy();
			if (!application.waitFor(1, TimeUnit.MINUTES)) {
				application.destroyForcibly().waitFor();
			}
		}
		assertThat(Files.readString(log)).doesNotContain("NoClassDefFoundError", "ClassNotFoundException");
	}

	@ParameterizedTest(name = "spring.aot.enabled={0}")
	@ValueSource(booleans = { false, true })
	void withoutAnyRedisStopsAtStartupWithWhatToDo(boolean aot) throws Exception {
		Path log = this.logs.resolve("application.log");
		// No spring.data.redis.* at all (spring.data.redis.port alone now configures a
		// Redis on localhost): the check fails while the beans are created, before the
		// context starts anything that connects.
		Process application = start(log, aot, "--server.port=0");
		String output = awaitExit(application, log);
		assertThat(application.exitValue()).as(output).isEqualTo(1);
		assertThat(output).contains("APPLICATION FAILED TO START", "Description:\n\n" + NO_REDIS,
				"Action:\n\n" + CONFIGURE_REDIS);
		assertThat(output).doesNotContain("NoClassDefFoundError", "ClassNotFoundException");
	}

	@Test
	void demoStopsWithWhatToDo() throws Exception {
		Path log = this.logs.resolve("demo.log");
		Process demo = start(log, false, "--demo");
		String output = awaitExit(demo, log);
		assertThat(demo.exitValue()).as(output).isEqualTo(2);
		assertThat(output).contains("The demo runs on an embedded Redis, which is only on the development class "
				+ "path: TestSampleApplication in src/test starts it, with spring-boot:test-run, and the application "
				+ "jar leaves it out. Run the demo with "
				+ "./mvnw -pl sample-app -am spring-boot:test-run -Dspring-boot.run.arguments=--demo.");
		assertThat(output).as("no stack trace").doesNotContain("NoClassDefFoundError", "\tat ");
	}

	private static Process start(Path log, boolean aot, String... arguments) throws IOException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-Dspring.aot.enabled=" + aot, "-jar", jar.toString(), "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private static void awaitHealthy(Process application, URI base, Path log) throws IOException {
		try {
			Awaitility.await("the application answering /actuator/health with 200")
				.atMost(STARTUP_TIMEOUT)
				.pollInterval(Duration.ofMillis(500))
				.failFast("the application exited", () -> !application.isAlive())
				.ignoreExceptionsInstanceOf(UncheckedIOException.class)
				.until(() -> SampleHttp.get(base, "/actuator/health").statusCode() == 200);
		}
		catch (ConditionTimeoutException | TerminalFailureException ex) {
			throw new AssertionError(ex.getMessage() + ". Its output:\n" + Files.readString(log), ex);
		}
	}

	private static String awaitExit(Process process, Path log) throws Exception {
		boolean exited = process.waitFor(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		if (!exited) {
			process.destroyForcibly().waitFor();
		}
		String output = Files.readString(log);
		assertThat(exited).as("exited at startup; its output:\n" + output).isTrue();
		return output;
	}

	private static String valueIn(RedisTestServer redis, String key) {
		RedisClient client = RedisClient.create(redis.url());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync().get(key);
		}
		finally {
			client.shutdown();
		}
	}

}
