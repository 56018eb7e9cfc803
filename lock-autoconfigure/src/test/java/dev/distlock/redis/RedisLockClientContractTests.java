package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

/**
 * The lock contract for {@link RedisLockClient} with its standard backoff.
 */
class RedisLockClientContractTests extends AbstractLockClientContractTests {

	private static LettuceConnectionFactory connectionFactory;

	private static LockClient client;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.connectionFactory(RedisTestServers.shared());
		client = new RedisLockClient(TestRedis.template(connectionFactory), JitteredBackoffWaiter.standard(), "",
				new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	@Override
	protected LockClient client() {
		return client;
	}

}
