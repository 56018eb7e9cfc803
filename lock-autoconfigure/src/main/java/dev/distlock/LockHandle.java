package dev.distlock;

import java.time.Duration;

/**
 * A lock held by this process. Release it exactly once, normally with try-with-resources;
 * further calls to {@link #release()} do nothing.
 * <p>
 * Release deletes the key only if it still holds this acquisition's token (an atomic
 * compare-and-delete in Redis), so a holder whose lease expired can never delete the lock of
 * the next holder. Such a late release is reported with a {@link LockLeaseLostException}.
 */
public interface LockHandle extends AutoCloseable {

	/**
	 * Returns the Redis key of the lock, including the configured prefix.
	 * @return the key
	 */
	String key();

	/**
	 * Returns the lease this lock was acquired with.
	 * @return the lease time
	 */
	Duration leaseTime();

	/**
	 * Returns whether {@link #release()} has been called.
	 * @return whether the lock was released
	 */
	boolean isReleased();

	/**
	 * Releases the lock if Redis still holds it for this acquisition.
	 * @throws LockLeaseLostException if the lease had already expired (the key was gone or
	 * held by someone else), so the work done under the lock may have overlapped with another
	 * holder
	 * @throws LockUnavailableException if Redis cannot be reached; the lock then expires with
	 * its lease
	 */
	void release();

	/**
	 * Same as {@link #release()}.
	 */
	@Override
	default void close() {
		release();
	}

}
