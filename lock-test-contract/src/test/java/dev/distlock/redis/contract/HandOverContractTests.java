package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The lock contract for the client as auto-configured: waiters queued in Redis and handed
 * the lock by the release, locks passed between the client's threads without Redis, and
 * auto-renewing leases (short ones here, renewed every second) for calls without a lease
 * time.
 */
class HandOverContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.maxLocalPasses(RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

}
