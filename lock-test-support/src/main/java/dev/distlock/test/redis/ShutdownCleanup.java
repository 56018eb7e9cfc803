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
