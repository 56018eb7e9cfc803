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

package dev.distlock.test.spring;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * Connection details of a standalone test server without credentials, TLS or database
 * index, as {@link WithRedisTestServer} registers them.
 *
 * @param host the server's host
 * @param port the server's port
 */
record RedisTestServerConnectionDetails(String host, int port) implements DataRedisConnectionDetails {

	/**
	 * The server as a standalone node, database 0.
	 * @return the host and port
	 */
	@Override
	public Standalone getStandalone() {
		return Standalone.of(this.host, this.port);
	}

}
