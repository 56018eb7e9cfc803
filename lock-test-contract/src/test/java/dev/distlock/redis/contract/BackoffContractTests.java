package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * The lock contract for a client whose waiters only retry, with the standard backoff: no
 * release messages.
 */
class BackoffContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(false)
			.waiter(JitteredBackoffWaiter.standard())
			.defaultOptions(new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

}
