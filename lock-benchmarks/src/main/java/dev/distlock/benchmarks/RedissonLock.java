package dev.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RLock} with its watchdog lease ({@code lock()} without a lease time:
 * 30 s, renewed every 10 s while held), waiters woken by pub/sub.
 */
final class RedissonLock extends JavaLockContender {

	private final RedissonClient redisson;

	RedissonLock(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return "Redisson RLock";
	}

	@Override
	Lock lockFor(String key) {
		return this.redisson.getLock(key);
	}

	@Override
	public String longLease() {
		return "watchdog 30 s, renewed every 10 s";
	}

}
