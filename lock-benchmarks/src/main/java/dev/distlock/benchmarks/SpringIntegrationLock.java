package dev.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

import org.springframework.integration.redis.util.RedisLockRegistry;

/**
 * Spring Integration's {@link RedisLockRegistry} in one of its two modes. Threads of one JVM
 * queue on a local lock per key before they touch Redis. Held locks are renewed by the
 * registry's renewal scheduler every third of {@code expireAfter}.
 */
final class SpringIntegrationLock implements ExplicitContender {

	private final RedisLockRegistry registry;

	private final RedisLockRegistry.RedisLockType type;

	private final String longLease;

	SpringIntegrationLock(RedisLockRegistry registry, RedisLockRegistry.RedisLockType type, String longLease) {
		this.registry = registry;
		this.type = type;
		this.longLease = longLease;
	}

	@Override
	public String name() {
		return (this.type == RedisLockRegistry.RedisLockType.SPIN_LOCK) ? "Spring Integration SPIN_LOCK"
				: "Spring Integration PUB_SUB_LOCK";
	}

	@Override
	public Held acquire(String key) {
		Lock lock = this.registry.obtain(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public Held acquireLongHeld(String key) {
		return acquire(key);
	}

	@Override
	public String longLease() {
		return this.longLease;
	}

}
