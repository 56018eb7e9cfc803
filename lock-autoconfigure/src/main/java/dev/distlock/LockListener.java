/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock;

import java.time.Duration;

/**
 * Told what happens to the locks of a {@link LockClient}: acquisitions (and failed ones),
 * waits, releases, renewals and lost leases. Define beans of this type to observe locks;
 * each method runs on the thread that caused the event (the renewal thread for
 * {@link #renewed} and most {@link #leaseLost} calls) and must return quickly without
 * throwing.
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
	 * @param options the options the caller acquired with: the lock's logical name, mode
	 * and permits
	 * @param waited how long the caller waited
	 */
	default void notAcquired(String key, LockOptions options, Duration waited) {
	}

	/**
	 * Called when an acquisition failed because Redis could not be reached or failed.
	 * @param key the Redis key of the lock
	 * @param options the options the caller acquired with
	 * @param waited how long the caller tried
	 * @param failure what the caller gets thrown
	 */
	default void unavailable(String key, LockOptions options, Duration waited, LockUnavailableException failure) {
	}

	/**
	 * Called when a caller starts waiting for a lock that another holder has, after its
	 * first attempt failed; {@link #stoppedWaiting} follows on the same thread.
	 * @param key the Redis key of the lock
	 * @param options the options the caller acquires with
	 */
	default void startedWaiting(String key, LockOptions options) {
	}

	/**
	 * Called when a caller stops waiting for a lock, with or without it; before
	 * {@link #acquired}, {@link #notAcquired} or {@link #unavailable}.
	 * @param key the Redis key of the lock
	 * @param options the options the caller acquires with
	 */
	default void stoppedWaiting(String key, LockOptions options) {
	}

	/**
	 * Called when a hold ended, whether the lock was released or found lost.
	 * @param handle the hold
	 * @param held how long the lock was held
	 */
	default void released(LockHandle handle, Duration held) {
	}

	/**
	 * Called once when a hold's lease is found lost: a renewal found the key gone or
	 * owned by someone else, the hold's local validity ran out while it was held (told
	 * when the deadline passes, for a fixed lease the method outlives as for a renewed
	 * one that Redis did not confirm in time), or the release found the key gone.
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
