package dev.distlock.redis.contract;

import java.time.Duration;

import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.wait.JitteredBackoffWaiter;

/**
 * The reactive lock contract for a client whose waiters only retry, with the standard
 * backoff on Reactor's timer: no release messages, no place in the lock's queue.
 */
class ReactiveBackoffContractTests extends AbstractReactiveRedisContractTests {

	@Override
	void configure(RedisLockClientBuilder builder) {
		builder.releaseMessages(false)
			.waiter(JitteredBackoffWaiter.standard())
			.defaultOptions(new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(30)))
			.renewalLease(Duration.ofSeconds(3));
	}

}
