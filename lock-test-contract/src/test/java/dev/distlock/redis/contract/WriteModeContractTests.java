package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The whole lock contract for the write side of a read-write lock, on the client as
 * auto-configured (waiters handed the lock by the release, auto-renewing leases): a
 * writer must behave as an exclusive lock in every respect, through the shared scripts.
 */
class WriteModeContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.maxLocalPasses(RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

	@Override
	protected LockOptions options(LockOptions options) {
		return options.withMode(LockMode.WRITE);
	}

}
