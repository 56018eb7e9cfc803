package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.distlock.LockClient;
import dev.distlock.test.redis.RedisTestServers;

/**
 * The lock contract for a client that never passes a lock between its threads without Redis:
 * every hand-off goes through the queue in Redis.
 */
class RedisHandOffOnlyContractTests extends AbstractLockClientContractTests {

	private static LockFixture fixture;

	@BeforeAll
	static void start() {
		fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(3), 0);
	}

	@AfterAll
	static void stop() {
		fixture.close();
	}

	@Override
	protected LockClient client() {
		return fixture.client;
	}

}
