package dev.distlock.benchmarks;

import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@link RSemaphore}: {@code trySetPermits(n)} once per key, then
 * {@code acquire()} and {@code release()}, waiters woken by pub/sub. Its permits have no
 * lease: a holder that dies keeps its permit for good.
 */
final class RedissonSemaphore implements SharedLockContender {

	static final String NAME = "Redisson RSemaphore";

	private final RedissonClient redisson;

	RedissonSemaphore(RedissonClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void prepare(String key, int permits) {
		if (!this.redisson.getSemaphore(key).trySetPermits(permits)) {
			throw new IllegalStateException("The permits of " + key + " were set already");
		}
	}

	@Override
	public ExplicitContender.Held acquire(String key, Access access) {
		if (access != Access.PERMIT) {
			throw new IllegalArgumentException(NAME + " has only permits");
		}
		RSemaphore semaphore = this.redisson.getSemaphore(key);
		try {
			semaphore.acquire();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a permit of " + key, ex);
		}
		return semaphore::release;
	}

}
