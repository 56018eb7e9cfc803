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

/**
 * A Redis server a test can talk to.
 * <p>
 * Obtain one from {@link RedisTestServers}, from {@link RedisServerProcess}, or as a test
 * parameter through {@link RedisServerExtension}.
 */
public interface RedisTestServer extends AutoCloseable {

	/**
	 * Host the server listens on.
	 * @return a host name or address, for example {@code "127.0.0.1"}
	 */
	String host();

	/**
	 * Port the server listens on; the same across {@link #stop()} and {@link #start()}.
	 * @return the TCP port
	 */
	int port();

	/**
	 * Connection URL of the server.
	 * @return {@code redis://host:port}
	 */
	default String url() {
		return "redis://" + host() + ":" + port();
	}

	/**
	 * Whether {@link #stop()} and {@link #start()} are supported; {@code false} for an
	 * externally provided server.
	 * @return whether this object controls the server's lifecycle
	 */
	boolean isStoppable();

	/**
	 * Stops the server (kills the process or stops the container) and waits until its
	 * port refuses connections. The port stays assigned to this object so that
	 * {@link #start()} can reuse it. Does nothing if already stopped.
	 * @throws UnsupportedOperationException if the server is not
	 * {@linkplain #isStoppable() stoppable}
	 * @throws IllegalStateException if the server does not go away in time
	 */
	void stop();

	/**
	 * Starts the server again on the same port after {@link #stop()} and waits until it
	 * answers {@code PING}. Does nothing if already running.
	 * @throws UnsupportedOperationException if the server is not
	 * {@linkplain #isStoppable() stoppable}
	 * @throws IllegalStateException if the server cannot be started or does not answer in
	 * time
	 */
	void start();

	/**
	 * Stops the server and releases everything this object holds. Idempotent; the object
	 * cannot be restarted afterwards.
	 */
	@Override
	void close();

}
