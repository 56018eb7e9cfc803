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

package dev.distlock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Properties;

import org.redisson.Redisson;

import org.springframework.boot.SpringBootVersion;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.integration.redis.util.RedisLockRegistry;

import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;

/**
 * Describes the machine and the software a run measured, for the head of the report.
 */
final class BenchEnvironment {

	private BenchEnvironment() {
	}

	static String describe(StringRedisTemplate redis) {
		Properties server = redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
		return describe(server.getProperty("redis_version") + " on loopback, no persistence");
	}

	/**
	 * Describes the environment.
	 * @param redis the Redis version and deployment
	 * @return the table
	 */
	static String describe(String redis) {
		MarkdownTable table = new MarkdownTable("what", "value");
		table.row("CPUs (nproc)", Runtime.getRuntime().availableProcessors());
		table.row("CPU model", firstValue("/proc/cpuinfo", "model name"));
		table.row("memory", firstValue("/proc/meminfo", "MemTotal"));
		table.row("load average at start", read("/proc/loadavg"));
		table.row("Redis", redis);
		table.row("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		table.row("Spring Boot", SpringBootVersion.getVersion());
		table.row("Redisson", jarOf(Redisson.class));
		table.row("Spring Integration", jarOf(RedisLockRegistry.class));
		table.row("distlock", location(DistributedLockAutoConfiguration.class) + ": " + DistlockFactory.describeMode());
		return table.render();
	}

	static String loadAverage() {
		return read("/proc/loadavg");
	}

	private static String location(Class<?> type) {
		CodeSource source = type.getProtectionDomain().getCodeSource();
		Path path = (source != null) ? Path.of(source.getLocation().getPath()) : null;
		if (path == null) {
			return "?";
		}
		Path workingDirectory = Path.of("").toAbsolutePath();
		return path.startsWith(workingDirectory) ? workingDirectory.relativize(path).toString() : path.toString();
	}

	private static String jarOf(Class<?> type) {
		CodeSource source = type.getProtectionDomain().getCodeSource();
		return (source != null) ? Path.of(source.getLocation().getPath()).getFileName().toString() : "?";
	}

	private static String firstValue(String file, String name) {
		try {
			return Files.readAllLines(Path.of(file))
				.stream()
				.filter((line) -> line.startsWith(name))
				.map((line) -> line.substring(line.indexOf(':') + 1).trim())
				.findFirst()
				.orElse("?");
		}
		catch (IOException ex) {
			return "?";
		}
	}

	private static String read(String file) {
		try {
			return Files.readString(Path.of(file)).trim();
		}
		catch (IOException ex) {
			return "?";
		}
	}

}
