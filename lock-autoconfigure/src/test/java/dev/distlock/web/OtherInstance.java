package dev.distlock.web;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.testing.TestRedis;

/**
 * Another instance of the application: a lock client of its own, on a connection of its
 * own, that holds locks in Redis while a request of the application under test wants
 * them.
 */
final class OtherInstance implements AutoCloseable {

	private final LettuceConnectionFactory connection;

	private final RedisLockClient client;

	/**
	 * Creates the instance.
	 * @param redis the server
	 * @param keyPrefix the key prefix, as the application's {@code distlock.key-prefix}
	 */
	OtherInstance(RedisTestServer redis, String keyPrefix) {
		this.connection = TestRedis.connectionFactory(redis);
		this.client = RedisLockClient.builder(TestRedis.template(this.connection)).keyPrefix(keyPrefix).build();
	}

	/**
	 * Acquires a lock with a lease of 30 seconds, waiting for it up to 5 seconds.
	 * @param key the key, without the prefix
	 * @return the hold
	 */
	LockHandle lock(String key) {
		return this.client.lock(key, new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

	@Override
	public void close() {
		this.client.close();
		this.connection.destroy();
	}

}
