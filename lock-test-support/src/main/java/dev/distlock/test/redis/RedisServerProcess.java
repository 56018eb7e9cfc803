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

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.test.util.TestSocketUtils;

import dev.distlock.test.redis.RunningRedisProcess.PortInUseException;

/**
 * Starts and stops one real {@code redis-server} process on a free loopback port. Usable
 * outside tests: a sample application runs one as its embedded Redis.
 * <p>
 * The process listens on {@code 127.0.0.1} only, persists nothing and works in a private
 * temporary directory. It is the {@code redis-server} on {@code PATH}, or else the binary
 * shipped in {@code com.github.codemonstur:embedded-redis}. A JVM shutdown hook kills it
 * if it is still running when the JVM exits. <pre class="code">
 * try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
 *     connect(redis.url());
 * }
 * </pre>
 */
public final class RedisServerProcess implements RedisTestServer {

	private static final Logger logger = LoggerFactory.getLogger(RedisServerProcess.class);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final int FREE_PORT_ATTEMPTS = 3;

	private final Path binary;

	private final int port;

	private final @Nullable String configFile;

	private final List<String> configuration;

	private @Nullable RunningRedisProcess running;

	private boolean closed;

	private RedisServerProcess(Path binary, int port, @Nullable String configFile, List<String> configuration) {
		this.binary = binary;
		this.port = port;
		this.configFile = configFile;
		this.configuration = List.copyOf(configuration);
		ShutdownCleanup.register(this);
	}

	/**
	 * Starts {@code redis-server} on a free port of {@code 127.0.0.1} and waits until it
	 * answers PING. (Named so because a static {@code start()} would clash with
	 * {@link RedisTestServer#start()}.)
	 * @param configuration further {@code redis-server} arguments, kept for every start,
	 * such as {@code "--rename-command", "TIME", ""}; none for a plain server
	 * @return the running server
	 * @throws IllegalStateException if no binary is found or the server does not come up;
	 * the message includes the server's output
	 */
	public static RedisServerProcess startOnFreePort(String... configuration) {
		return start(RedisServerBinary.resolve(), null, List.of(configuration));
	}

	/**
	 * Starts a Redis Sentinel ({@code redis-server <file> --sentinel}) on a free port of
	 * {@code 127.0.0.1} and waits until it answers PING.
	 * @param sentinelConfiguration the lines of its configuration file, such as
	 * {@code sentinel monitor mymaster 127.0.0.1 6380 2}; the Sentinel rewrites the file
	 * as it learns the deployment
	 * @return the running Sentinel
	 * @throws IllegalStateException if no binary is found or the Sentinel does not come
	 * up
	 */
	public static RedisServerProcess startSentinelOnFreePort(String sentinelConfiguration) {
		return start(RedisServerBinary.resolve(), sentinelConfiguration, List.of("--sentinel"));
	}

	/**
	 * Starts the {@code redis-server} binary shipped in
	 * {@code com.github.codemonstur:embedded-redis} (Redis 6.2), whatever {@code PATH}
	 * holds, on a free port: the server of the last resort, which code that must also run
	 * there can be tested against.
	 * @return the running server
	 * @throws IllegalStateException if the artifact has no binary for this platform or
	 * the server does not come up
	 */
	public static RedisServerProcess startEmbeddedOnFreePort() {
		return start(RedisServerBinary.embedded(), null, List.of());
	}

	/**
	 * Starts {@code redis-server} on the given port of {@code 127.0.0.1} and waits until
	 * it answers PING.
	 * @param port the port, which must be free, or {@code 0} for
	 * {@linkplain #startOnFreePort(String...) any free port}
	 * @return the running server
	 * @throws IllegalStateException if the port is taken, no binary is found or the
	 * server does not come up
	 */
	public static RedisServerProcess start(int port) {
		return (port != 0) ? start(RedisServerBinary.resolve(), port, null, List.of()) : startOnFreePort();
	}

	static RedisServerProcess start(Path binary) {
		return start(binary, null, List.of());
	}

	private static RedisServerProcess start(Path binary, @Nullable String configFile, List<String> configuration) {
		for (int attempt = 1;; attempt++) {
			try {
				return start(binary, TestSocketUtils.findAvailableTcpPort(), configFile, configuration);
			}
			catch (PortInUseException ex) {
				if (attempt == FREE_PORT_ATTEMPTS) {
					throw ex;
				}
				logger.debug("Free port was taken before redis-server could bind it, trying another one");
			}
		}
	}

	static RedisServerProcess start(Path binary, int port) {
		return start(binary, port, null, List.of());
	}

	private static RedisServerProcess start(Path binary, int port, @Nullable String configFile,
			List<String> configuration) {
		RedisServerProcess server = new RedisServerProcess(binary, port, configFile, configuration);
		try {
			server.start();
			return server;
		}
		catch (RuntimeException ex) {
			server.close();
			throw ex;
		}
	}

	@Override
	public String host() {
		return LocalPorts.LOOPBACK;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public boolean isStoppable() {
		return true;
	}

	/**
	 * Whether the process is running.
	 * @return {@code true} between a successful start and the next stop
	 */
	public synchronized boolean isRunning() {
		return this.running != null && this.running.isAlive();
	}

	@Override
	public synchronized void start() {
		if (this.closed) {
			throw new IllegalStateException(this + " is closed");
		}
		if (isRunning()) {
			return;
		}
		if (!LocalPorts.isFree(this.port)) {
			throw new PortInUseException("Port " + this.port + " on " + LocalPorts.LOOPBACK + " is already in use");
		}
		this.running = RunningRedisProcess.launch(this.binary, this.port, this.configFile, this.configuration,
				STARTUP_TIMEOUT);
		logger.debug("Started {} for {}", this.running, this);
	}

	@Override
	public synchronized void stop() {
		stop(false);
	}

	/**
	 * Kills the process at once ({@code SIGKILL}), as a crash would: unlike
	 * {@link #stop()}, where Redis 7 first lets lagging replicas catch up, writes that
	 * had not reached a replica are lost. Can be started again, empty.
	 */
	public synchronized void crash() {
		stop(true);
	}

	private void stop(boolean crash) {
		RunningRedisProcess process = this.running;
		if (process == null) {
			return;
		}
		this.running = null;
		if (crash) {
			process.crash(STOP_TIMEOUT);
		}
		else {
			process.kill(STOP_TIMEOUT);
		}
		RedisProbe.awaitRefused(host(), this.port, STOP_TIMEOUT);
		logger.debug("Stopped {}", this);
	}

	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			stop();
		}
		finally {
			ShutdownCleanup.unregister(this);
		}
	}

	@Override
	public String toString() {
		return "RedisServerProcess[" + url() + ", " + this.binary + "]";
	}

}
