package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The reactive lock contract for a client as auto-configured: waiters queued in Redis and
 * handed the lock by release messages, and auto-renewing leases (short ones here, renewed
 * every second) for calls without a lease time.
 */
class ReactiveHandOverContractTests extends AbstractReactiveRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

}
