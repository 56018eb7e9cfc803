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
