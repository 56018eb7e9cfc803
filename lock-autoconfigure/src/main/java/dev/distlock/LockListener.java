package dev.distlock;

import java.time.Duration;

/**
 * Told what happens to the locks of a {@link LockClient}: acquisitions, releases, renewals and
 * lost leases. Define beans of this type to observe locks; each method runs on the thread that
 * caused the event (the renewal thread for {@link #renewed} and most {@link #leaseLost} calls)
 * and must return quickly without throwing.
 */
public interface LockListener {

	/**
	 * Called when a lock was acquired from Redis (not for re-entrant acquisitions).
	 * @param handle the new hold
	 * @param waited how long the caller waited for it
	 */
	default void acquired(LockHandle handle, Duration waited) {
	}

	/**
	 * Called when a lock was not acquired within the wait time.
	 * @param key the Redis key of the lock
	 * @param waited how long the caller waited
	 */
	default void notAcquired(String key, Duration waited) {
	}

	/**
	 * Called when a hold ended, whether the lock was released or found lost.
	 * @param handle the hold
	 * @param held how long the lock was held
	 */
	default void released(LockHandle handle, Duration held) {
	}

	/**
	 * Called once when a hold's lease is found lost: a renewal found the key gone or owned by
	 * someone else, Redis stayed unreachable past the lease, or the release found the key gone.
	 * @param handle the hold whose lease was lost
	 */
	default void leaseLost(LockHandle handle) {
	}

	/**
	 * Called after each renewal round.
	 * @param renewed how many leases were renewed
	 * @param roundTrips how many Redis round trips the round took
	 */
	default void renewed(int renewed, int roundTrips) {
	}

}
