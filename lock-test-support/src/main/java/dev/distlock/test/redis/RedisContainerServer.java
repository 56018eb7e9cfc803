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

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.test.util.TestSocketUtils;

/**
 * A {@code redis:7-alpine} container run by Testcontainers. Its Redis port is published
 * on a fixed host port, chosen once, so that a container started again after
 * {@link #stop()} is reachable at the same address.
 */
final class RedisContainerServer implements RedisTestServer {

	private static final Logger logger = LoggerFactory.getLogger(RedisContainerServer.class);

	private static final DockerImageName IMAGE = DockerImageName.parse("redis:7-alpine");

	private static final int REDIS_PORT = 6379;

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

	private final String host;

	private final int port;

	private @Nullable GenericContainer<?> container;

	private boolean closed;

	private RedisContainerServer(String host, int port) {
		this.host = host;
		this.port = port;
		ShutdownCleanup.register(this);
	}

	/**
	 * Starts a container on a host port that is free on this machine and waits until
	 * Redis answers PING.
	 * @return the running server
	 * @throws RuntimeException if the container cannot be started
	 */
	static RedisContainerServer startNew() {
		RedisContainerServer server = new RedisContainerServer(DockerClientFactory.instance().dockerHostIpAddress(),
				TestSocketUtils.findAvailableTcpPort());
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
		return this.host;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public boolean isStoppable() {
		return true;
	}

	@Override
	public synchronized void start() {
		if (this.closed) {
			throw new IllegalStateException(this + " is closed");
		}
		if (this.container != null) {
			return;
		}
		GenericContainer<?> started = new GenericContainer<>(IMAGE).withExposedPorts(REDIS_PORT)
			.withCommand("redis-server", "--save", "", "--appendonly", "no")
			.withStartupTimeout(STARTUP_TIMEOUT)
			.withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig()
				.withPortBindings(new PortBinding(Ports.Binding.bindPort(this.port), ExposedPort.tcp(REDIS_PORT))));
		try {
			started.start();
			RedisProbe.awaitPong(this.host, this.port, STARTUP_TIMEOUT, started::isRunning);
		}
		catch (RuntimeException ex) {
			String logs = logsOf(started);
			started.stop();
			throw new IllegalStateException("Redis container " + this + " did not come up: " + ex.getMessage() + logs,
					ex);
		}
		this.container = started;
		logger.debug("Started {}", this);
	}

	@Override
	public synchronized void stop() {
		GenericContainer<?> running = this.container;
		if (running == null) {
			return;
		}
		this.container = null;
		running.stop();
		RedisProbe.awaitRefused(this.host, this.port, STOP_TIMEOUT);
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

	private static String logsOf(GenericContainer<?> container) {
		try {
			return (container.getContainerId() != null) ? System.lineSeparator() + container.getLogs() : "";
		}
		catch (RuntimeException ex) {
			return "";
		}
	}

	@Override
	public String toString() {
		return "RedisContainerServer[" + IMAGE + " at " + url() + "]";
	}

}
