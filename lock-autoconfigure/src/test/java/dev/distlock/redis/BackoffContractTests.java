package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.testing.SharedRedisConnection;

/**
 * The lock contract for {@link RedisLockClient} whose waiters only retry, with its
 * standard backoff.
 */
class BackoffContractTests extends AbstractLockClientContractTests {

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private static LockClient client;

	@BeforeAll
	static void connect() {
		client = new RedisLockClient(REDIS.template(), JitteredBackoffWaiter.standard(), "",
				new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

	@Override
	protected LockClient client() {
		return client;
	}

}
