package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.distlock.LockClient;
import dev.distlock.test.redis.RedisTestServers;

/**
 * The lock contract for the client as auto-configured: waiters queued in Redis and handed the
 * lock by the release, locks passed between the client's threads without Redis, and
 * auto-renewing leases for calls without a lease time.
 */
class PubSubLockClientContractTests extends AbstractLockClientContractTests {

	private static LockFixture fixture;

	@BeforeAll
	static void start() {
		fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(3));
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
