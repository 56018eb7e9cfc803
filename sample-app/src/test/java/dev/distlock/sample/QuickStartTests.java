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
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.SampleHttp;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start says what a new user sees, and it holds: the command, the log
 * line that says the sample is ready and the port (Spring Boot's {@code Started ...} line
 * and 8080: the sample's properties change neither), the {@code curl} commands with the
 * answers shown beside them, and how to stop it.
 */
class QuickStartTests {

	private static final Pattern CURL = Pattern
		.compile("curl (?:-X (\\w+) )?localhost:8080(\\S+)(?: -H '[^']*')?(?: -d '([^']*)')?(?:\\s+# (.*))?");

	@Test
	void quickStartSaysWhatToExpectAndItsCommandsAnswerAsShown() throws IOException {
		String quickStart = section(Files.readString(Path.of("..", "README.md")), "## Quick start");
		assertThat(quickStart).contains("./mvnw -pl sample-app -am spring-boot:test-run", "about two minutes",
				"`Started SampleApplication`", "port 8080", "Ctrl+C");
		Properties properties = new Properties();
		try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
			properties.load(in);
		}
		assertThat(properties).as("Spring Boot's defaults the quick start describes: port 8080, the startup line")
			.doesNotContainKeys("server.port", "spring.main.log-startup-info", "logging.level.root",
					"logging.level.dev.distlock.sample");
		String runLogging;
		try (InputStream in = getClass()
			.getResourceAsStream("/" + TestSampleApplication.LOGGING_CONFIG.substring("classpath:".length()))) {
			assertThat(in).as(TestSampleApplication.LOGGING_CONFIG).isNotNull();
			runLogging = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(runLogging)
			.as("the logging of spring-boot:test-run, whose class path has the tests' logback-test.xml (WARN) too")
			.contains("org/springframework/boot/logging/logback/console-appender.xml", "<root level=\"INFO\">");
		List<String> curls = quickStart.lines().filter((line) -> line.startsWith("curl ")).toList();
		assertThat(curls).hasSize(2);
		try (SampleInstances instances = TestCluster.start(1, RedisTestServers.shared(), TestDatabase.h2())) {
			URI base = instances.baseUri(0);
			for (String curl : curls) {
				Matcher command = CURL.matcher(curl);
				assertThat(command.matches()).as("a curl command the test understands: %s", curl).isTrue();
				HttpResponse<String> response = send(base, command);
				assertThat(response.statusCode()).as(curl).isEqualTo(200);
				if (command.group(4) != null) {
					assertThat(SampleHttp.json(response)).as(curl)
						.isEqualTo(JsonMapper.builder().build().readTree(command.group(4)));
				}
			}
		}
	}

	private static HttpResponse<String> send(URI base, Matcher command) {
		String method = (command.group(1) != null) ? command.group(1) : "GET";
		String path = command.group(2);
		return switch (method) {
			case "PUT" -> SampleHttp.put(base, path, command.group(3));
			case "POST" -> (command.group(3) != null) ? SampleHttp.post(base, path, command.group(3))
					: SampleHttp.post(base, path);
			default -> SampleHttp.get(base, path);
		};
	}

	private static String section(String markdown, String heading) {
		int start = markdown.indexOf(heading);
		assertThat(start).as("README has %s", heading).isNotNegative();
		int end = markdown.indexOf("\n## ", start + heading.length());
		return markdown.substring(start, (end < 0) ? markdown.length() : end);
	}

}
