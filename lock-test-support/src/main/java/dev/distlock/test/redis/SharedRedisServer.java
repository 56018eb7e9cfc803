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
 * The JVM-wide server of {@link RedisTestServers#shared()}: delegates to the real server,
 * except that {@link #close()} does nothing, so that one test closing it (for example
 * with try-with-resources) cannot take it away from the others. The real server is closed
 * by the JVM shutdown hook.
 */
final class SharedRedisServer implements RedisTestServer {

	private final RedisTestServer delegate;

	SharedRedisServer(RedisTestServer delegate) {
		this.delegate = delegate;
	}

	@Override
	public String host() {
		return this.delegate.host();
	}

	@Override
	public int port() {
		return this.delegate.port();
	}

	@Override
	public boolean isStoppable() {
		return this.delegate.isStoppable();
	}

	@Override
	public void stop() {
		this.delegate.stop();
	}

	@Override
	public void start() {
		this.delegate.start();
	}

	/**
	 * Does nothing: the shared server lives until the JVM exits.
	 */
	@Override
	public void close() {
	}

	@Override
	public String toString() {
		return "shared " + this.delegate;
	}

}
