package dev.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

import org.springframework.integration.redis.util.RedisLockRegistry;

/**
 * Spring Integration's {@link RedisLockRegistry} in one of its two modes. Threads of one
 * JVM queue on a local lock per key before they touch Redis. Held locks are renewed by
 * the registry's renewal scheduler every third of {@code expireAfter}.
 */
final class SpringIntegrationLock extends JavaLockContender {

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
	Lock lockFor(String key) {
		return this.registry.obtain(key);
	}

	@Override
	public String longLease() {
		return this.longLease;
	}

}
