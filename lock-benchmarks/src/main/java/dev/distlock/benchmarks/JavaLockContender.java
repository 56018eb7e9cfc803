package dev.distlock.benchmarks;

import java.util.concurrent.locks.Lock;

/**
 * A contender whose locks are {@link Lock}s obtained per key (Redisson's {@code RLock},
 * Spring Integration's registry locks): {@code lock()} to acquire, {@code unlock()} to
 * release, and the library's own lease handling for long holds.
 */
abstract class JavaLockContender implements ExplicitContender {

	/**
	 * Returns the library's lock for a key.
	 * @param key the lock key
	 * @return the lock
	 */
	abstract Lock lockFor(String key);

	@Override
	public Held acquire(String key) {
		Lock lock = lockFor(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public Held acquireLongHeld(String key) {
		return acquire(key);
	}

}
