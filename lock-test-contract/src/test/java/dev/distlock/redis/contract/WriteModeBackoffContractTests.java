package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * The whole lock contract for the write side of a read-write lock with waiters that only
 * retry (no queue, no hand-over messages).
 */
class WriteModeBackoffContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(false)
			.waiter(JitteredBackoffWaiter.standard())
			.defaultOptions(new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)));
	}

	@Override
	protected LockOptions options(LockOptions options) {
		return options.withMode(LockMode.WRITE);
	}

}
