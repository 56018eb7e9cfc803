package dev.distlock.redis;

/**
 * Decides how an acquirer waits between attempts on a lock that someone else holds. A wait may
 * end early (a release was announced, a backoff ran out); the acquire is always retried, never
 * assumed, so an early or spurious end only costs one attempt.
 */
@FunctionalInterface
public interface LockWaiter {

	/**
	 * Starts waiting for a lock, after a first attempt failed and before the next one, so that
	 * no release announced in between is missed.
	 * @param key the Redis key of the lock
	 * @return the wait, to be closed when the acquirer stops waiting
	 */
	Wait begin(String key);

	/**
	 * One acquirer's wait for one lock.
	 */
	interface Wait extends AutoCloseable {

		/**
		 * Pauses until the next attempt is worth making, at the latest when the holder's lease
		 * runs out or the caller's deadline passes.
		 * @param holderLeaseMillis the holder's remaining lease, as the failed attempt reported
		 * @param deadlineNanos the {@link System#nanoTime()} value past which the caller gives up
		 * @return {@code false} if the thread was interrupted (with its interrupt flag set
		 * again), {@code true} otherwise
		 */
		boolean await(long holderLeaseMillis, long deadlineNanos);

		/**
		 * Ends the wait.
		 * @param acquired whether the acquirer got the lock
		 */
		void close(boolean acquired);

		@Override
		default void close() {
			close(false);
		}

	}

}
