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

package dev.distlock.sample.demo;

import dev.distlock.sample.redis.EmbeddedRedisAvailability;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * The demo's Redis: a {@code redis-server} process on a free port of {@code 127.0.0.1},
 * run by {@link RedisServerProcess} of the development-only {@code lock-test-support}.
 * The only class of the demo that refers to it, so that {@link DemoLauncher} can check
 * {@link EmbeddedRedisAvailability} before this class is loaded.
 */
final class DemoRedisServer implements AutoCloseable {

	private final RedisServerProcess process;

	private DemoRedisServer(RedisServerProcess process) {
		this.process = process;
	}

	/**
	 * Starts a server and waits until it answers.
	 * @return the running server
	 */
	static DemoRedisServer start() {
		return new DemoRedisServer(RedisServerProcess.startOnFreePort());
	}

	/**
	 * Returns the server's URL.
	 * @return {@code redis://127.0.0.1:<port>}
	 */
	String url() {
		return this.process.url();
	}

	/**
	 * Stops the server.
	 */
	@Override
	public void close() {
		this.process.close();
	}

}
