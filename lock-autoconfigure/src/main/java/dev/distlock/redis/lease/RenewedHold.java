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

package dev.distlock.redis.lease;

import java.time.Duration;

/**
 * What the {@link LeaseRenewer} needs of a hold: its key and owner token, its lease,
 * whether it still needs renewing, and where to record a renewal that Redis confirmed.
 */
public interface RenewedHold {

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	String key();

	/**
	 * Returns the owner token the lock is held with in Redis.
	 * @return the token
	 */
	String token();

	/**
	 * Returns the lease each renewal of this hold extends it to.
	 * @return the lease
	 */
	Duration leaseTime();

	/**
	 * Returns the thread that holds the lock; a hold whose thread died is no longer
	 * renewed.
	 * @return the holder thread
	 */
	Thread owner();

	/**
	 * Returns whether the holder may still release the hold: its thread is alive, or the
	 * hold belongs to work rather than to a thread.
	 * @return whether the holder is alive
	 */
	default boolean isHolderAlive() {
		return owner().isAlive();
	}

	/**
	 * Returns whether the hold has ended, by this process's count.
	 * @return whether it ended
	 */
	boolean hasEnded();

	/**
	 * Returns whether the lease is lost or has run out by this process's count.
	 * @return whether the lease is lost
	 */
	boolean isLeaseLost();

	/**
	 * Returns until when the hold is valid by the local count; it moves only when Redis
	 * confirms a renewal.
	 * @return the deadline, by {@link System#nanoTime()}
	 */
	long validUntilNanos();

	/**
	 * Returns whether Redis keeps the hold for a hand-over's claim window only, neither
	 * confirmed nor extended since.
	 * @return whether it is still on its claim
	 */
	boolean isClaimOnly();

	/**
	 * Records that Redis confirmed the hold for the given time from a request sent then.
	 * @param sentNanos when the confirmed request was sent, by {@link System#nanoTime()}
	 * @param validFor how long Redis keeps the lock from then
	 */
	void confirmed(long sentNanos, Duration validFor);

	/**
	 * Returns when the release of the lock completed in Redis.
	 * @return the {@link System#nanoTime()} of the release, or 0 until then
	 */
	long releasedNanos();

}
