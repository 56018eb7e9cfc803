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

package dev.distlock.redis.protocol;

import java.time.Duration;

import org.springframework.util.Assert;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockMisconfigurationException;

/**
 * The restart quarantine ({@code distlock.restart-quarantine}): what the Redis
 * documentation asks of operators as "delayed restarts", done by the lock. A server found
 * to have lost distlock's state grants no lock for this long, counted by its own clock
 * from the first lock script that finds the state gone, so that every hold granted before
 * the loss has run out, by its holder's own count, before the key can be granted again.
 * The scripts find the state gone when the fencing counter of a slot, which never
 * expires, is missing; they then record the end of the quarantine in a key of the slot
 * ({@link LockKeyspace#quarantineKey(String)}) that expires with it. Off ({@link #OFF}),
 * the scripts get neither the key nor the length, and neither read nor write it.
 * <p>
 * It must be at least the longest lease a lock is granted with: a hold with a longer
 * lease could outlive the quarantine, so such an acquisition is refused
 * ({@link #checkLease}).
 *
 * @param duration how long no lock is granted, zero for off
 */
public record RestartQuarantine(Duration duration) {

	/** The property that turns the quarantine on. */
	public static final String ENABLED_PROPERTY = "distlock.restart-quarantine.enabled";

	/** The property that sets its length. */
	public static final String DURATION_PROPERTY = "distlock.restart-quarantine.duration";

	/** No quarantine: a server that lost its data grants locks at once. */
	public static final RestartQuarantine OFF = new RestartQuarantine(Duration.ZERO);

	public RestartQuarantine {
		Assert.isTrue(!duration.isNegative(), "the restart quarantine must not be negative");
	}

	/** Returns whether the quarantine is on. */
	public boolean isOn() {
		return !this.duration.isZero();
	}

	/**
	 * Refuses a lease longer than the quarantine, before anything is sent to Redis.
	 * @param key the Redis key of the lock
	 * @param lease the lease the lock would be granted with
	 * @throws LockMisconfigurationException if the quarantine is on and shorter than the
	 * lease
	 */
	public void checkLease(String key, Duration lease) {
		if (isOn() && lease.compareTo(this.duration) > 0) {
			throw new LockMisconfigurationException(key,
					"Could not acquire lock " + LockKeyQuoting.quote(key) + " with a lease of " + lease.toMillis()
							+ "ms: the restart quarantine (" + DURATION_PROPERTY + ") is " + this.duration.toMillis()
							+ "ms, and must be at least the longest lease, so that a hold granted before Redis lost "
							+ "its data runs out before the key is granted again. Set " + DURATION_PROPERTY
							+ " to at least " + lease.toMillis() + "ms, or give the lock a shorter lease.");
		}
	}

}
