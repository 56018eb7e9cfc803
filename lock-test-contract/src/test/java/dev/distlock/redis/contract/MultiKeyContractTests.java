package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The lock contract for locks taken through the multi-key methods of the Redis client,
 * each as a list of one key: taken at once by one script while free, else through the
 * queue and hand-over, with local passing on as auto-configured.
 */
class MultiKeyContractTests extends AbstractRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(true)
			.maxLocalPasses(RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3));
	}

	@Override
	protected LockClient client() {
		return new KeyListLockClient(super.client());
	}

}
