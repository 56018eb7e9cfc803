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

package dev.distlock.test.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Decides once per JVM whether Testcontainers can run containers.
 * <p>
 * Testcontainers' own check ({@link DockerClientFactory#isDockerAvailable()}) logs an
 * error and a list of failed strategies when there is no Docker. To keep machines without
 * Docker quiet, it is only asked when there is a sign that a Docker endpoint may exist:
 * {@code DOCKER_HOST} or a {@code TESTCONTAINERS_*} variable, a Testcontainers properties
 * file, a Docker configuration directory, a known Docker socket, or Windows (named pipe).
 */
final class DockerAvailability {

	private static final Logger logger = LoggerFactory.getLogger(DockerAvailability.class);

	private static @Nullable Boolean available;

	private DockerAvailability() {
	}

	/**
	 * Whether Docker works, checked on first call and remembered.
	 * @return {@code true} if Testcontainers is on the class path and reaches a Docker
	 * daemon
	 */
	static synchronized boolean isAvailable() {
		Boolean result = available;
		if (result == null) {
			long start = System.nanoTime();
			result = isTestcontainersPresent() && mayHaveDocker(System.getenv(), System.getProperty("user.home", ""),
					System.getProperty("os.name", ""), Files::exists) && askTestcontainers();
			available = result;
			logger.debug("Docker available: {} (checked in {} ms)", result, (System.nanoTime() - start) / 1_000_000);
		}
		return result;
	}

	/**
	 * Whether there is any sign of a Docker endpoint Testcontainers could use.
	 * @param env the environment variables
	 * @param userHome the user's home directory
	 * @param osName the operating system name
	 * @param exists whether a path exists
	 * @return {@code false} only when Testcontainers would certainly find no Docker
	 */
	static boolean mayHaveDocker(Map<String, String> env, String userHome, String osName, Predicate<Path> exists) {
		if (osName.toLowerCase(Locale.ROOT).startsWith("windows") || env.containsKey("DOCKER_HOST")
				|| env.keySet().stream().anyMatch((name) -> name.startsWith("TESTCONTAINERS_"))) {
			return true;
		}
		Path home = Path.of(userHome);
		String runtimeDir = env.get("XDG_RUNTIME_DIR");
		return exists.test(Path.of("/var/run/docker.sock")) || exists.test(home.resolve(".docker"))
				|| exists.test(home.resolve(".testcontainers.properties"))
				|| (runtimeDir != null && exists.test(Path.of(runtimeDir, "docker.sock")))
				|| DockerAvailability.class.getClassLoader().getResource("testcontainers.properties") != null;
	}

	private static boolean isTestcontainersPresent() {
		try {
			Class.forName("org.testcontainers.DockerClientFactory", false, DockerAvailability.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	private static boolean askTestcontainers() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Testcontainers could not check for Docker", ex);
			return false;
		}
	}

}
