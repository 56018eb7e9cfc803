package dev.distlock.redis;

/**
 * Decides how long an acquirer pauses between two attempts on a lock that is held by someone
 * else. Implementations must return by the deadline; they may return earlier, for example when
 * told that the lock was released, since the acquire is always retried, never assumed.
 */
@FunctionalInterface
public interface LockWaiter {

	/**
	 * Pauses before the next attempt to acquire the lock.
	 * @param key the Redis key of the lock
	 * @param attempt how many attempts have failed so far, starting at 1
	 * @param deadlineNanos the {@link System#nanoTime()} value past which the caller gives up
	 * @return {@code false} if the thread was interrupted (with its interrupt flag set again),
	 * {@code true} otherwise
	 */
	boolean await(String key, int attempt, long deadlineNanos);

}
