package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The lock contract for a client that never passes a lock between its threads without
 * Redis: every hold is handed over through the queue in Redis, by release messages.
 */
class NoLocalPassingContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.maxLocalPasses(0)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

}
