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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provides Redis servers to tests, from the first source that works:
 * <ol>
 * <li>the server named by the environment variable {@value #URL_VARIABLE}
 * ({@code redis://host:port}; shared server only),</li>
 * <li>a {@code redis:7-alpine} container, if Testcontainers finds a working Docker,</li>
 * <li>a {@code redis-server} process ({@link RedisServerProcess}).</li>
 * </ol>
 * There is no skipping: when no source works, an {@link IllegalStateException} says how
 * to provide one.
 */
public final class RedisTestServers {

	/**
	 * Environment variable naming an external Redis server to use as the shared server.
	 */
	public static final String URL_VARIABLE = "DISTLOCK_TEST_REDIS_URL";

	private static final Logger logger = LoggerFactory.getLogger(RedisTestServers.class);

	private static final Duration EXTERNAL_TIMEOUT = Duration.ofSeconds(5);

	private static @Nullable RedisTestServer shared;

	private static @Nullable IllegalStateException sharedFailure;

	private RedisTestServers() {
	}

	/**
	 * One server shared by every test in this JVM, started lazily on first call and
	 * stopped by a JVM shutdown hook. Closing it does nothing; tests that stop the server
	 * should use {@link #startDedicated()} instead.
	 * @return the shared server
	 * @throws IllegalStateException if no server can be provided (remembered: later calls
	 * fail the same way)
	 */
	public static synchronized RedisTestServer shared() {
		if (shared == null) {
			if (sharedFailure != null) {
				throw new IllegalStateException(sharedFailure.getMessage(), sharedFailure);
			}
			try {
				shared = new SharedRedisServer(startShared(System.getenv(URL_VARIABLE)));
				logger.debug("Shared Redis server: {}", shared);
			}
			catch (IllegalStateException ex) {
				sharedFailure = ex;
				throw ex;
			}
		}
		return shared;
	}

	/**
	 * A fresh server owned by the caller, always stoppable: a container if Docker works,
	 * else a process. Never the external server of {@value #URL_VARIABLE}. Close it when
	 * done.
	 * @return the started server
	 * @throws IllegalStateException if no server can be started
	 */
	public static RedisTestServer startDedicated() {
		List<RuntimeException> failures = new ArrayList<>();
		if (DockerAvailability.isAvailable()) {
			try {
				return RedisContainerServer.startNew();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not start a Redis container, falling back to a redis-server process", ex);
				failures.add(ex);
			}
		}
		try {
			return RedisServerProcess.startOnFreePort();
		}
		catch (RuntimeException ex) {
			failures.add(ex);
		}
		throw noServer(failures);
	}

	static RedisTestServer startShared(@Nullable String url) {
		if (url == null || url.isBlank()) {
			return startDedicated();
		}
		ExternalRedisServer external;
		try {
			external = ExternalRedisServer.fromUrl(url);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(URL_VARIABLE + " is invalid: " + ex.getMessage() + "; fix it, or unset "
					+ URL_VARIABLE + " to let the tests start a server", ex);
		}
		try {
			RedisProbe.awaitPong(external.host(), external.port(), EXTERNAL_TIMEOUT, () -> true);
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(URL_VARIABLE + "=" + url + " does not answer PING: " + ex.getMessage()
					+ "; start that server, or unset " + URL_VARIABLE + " to let the tests start one", ex);
		}
		return external;
	}

	static IllegalStateException noServer(List<RuntimeException> failures) {
		String nl = System.lineSeparator();
		StringBuilder message = new StringBuilder(
				"No Redis server available for tests. Provide one in any of these ways:")
			.append(nl)
			.append("  - set ")
			.append(URL_VARIABLE)
			.append("=redis://host:port to use a running server")
			.append(nl)
			.append("  - start Docker, so that Testcontainers can run redis:7-alpine")
			.append(nl)
			.append("  - install redis-server on the PATH (e.g. apt-get install redis-server, brew install redis)");
		failures.forEach((failure) -> message.append(System.lineSeparator()).append("Cause: ").append(failure));
		IllegalStateException exception = new IllegalStateException(message.toString());
		failures.forEach(exception::addSuppressed);
		return exception;
	}

}
