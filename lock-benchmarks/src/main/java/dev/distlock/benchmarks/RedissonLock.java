package dev.distlock.benchmarks;

import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RLock} with its watchdog lease ({@code lock()} without a lease time: 30 s,
 * renewed every 10 s while held), waiters woken by pub/sub.
 */
final class RedissonLock implements ExplicitContender {

	private final RedissonClient redisson;

	RedissonLock(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return "Redisson RLock";
	}

	@Override
	public Held acquire(String key) {
		RLock lock = this.redisson.getLock(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public Held acquireLongHeld(String key) {
		return acquire(key);
	}

	@Override
	public String longLease() {
		return "watchdog 30 s, renewed every 10 s";
	}

}
