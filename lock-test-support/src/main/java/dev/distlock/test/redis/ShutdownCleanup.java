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

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes every server still registered when the JVM shuts down, so that no
 * {@code redis-server} process or container outlives the tests. One hook for all servers,
 * installed on first use.
 */
final class ShutdownCleanup {

	private static final Logger logger = LoggerFactory.getLogger(ShutdownCleanup.class);

	private static final Set<RedisTestServer> servers = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ShutdownCleanup::closeAll, "distlock-redis-shutdown"));
	}

	private ShutdownCleanup() {
	}

	/**
	 * Closes the server when the JVM exits unless it is {@linkplain #unregister
	 * unregistered} before.
	 * @param server the server to close
	 */
	static void register(RedisTestServer server) {
		servers.add(server);
	}

	/**
	 * Forgets a server that has been closed.
	 * @param server the server
	 */
	static void unregister(RedisTestServer server) {
		servers.remove(server);
	}

	private static void closeAll() {
		for (RedisTestServer server : servers) {
			try {
				server.close();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not close {} on shutdown", server, ex);
			}
		}
	}

}
