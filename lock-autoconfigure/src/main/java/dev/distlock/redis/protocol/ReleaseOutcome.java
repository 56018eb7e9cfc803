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

import org.jspecify.annotations.Nullable;

/**
 * What {@code release.lua} did with a lock, parsed from its reply in one place.
 */
public enum ReleaseOutcome {

	/**
	 * The token did not hold the lock: it was gone (its lease ran out) or someone else's.
	 */
	NOT_HELD,

	/** The lock was deleted: nobody waited. */
	DELETED,

	/**
	 * The lock was left to expire when its minimum hold ends, under a value no renewal
	 * matches.
	 */
	KEPT_FOR_MIN_HOLD,

	/**
	 * The lock was handed to the first valid waiter in its queue, who was told on its
	 * channel.
	 */
	HANDED_OVER;

	/**
	 * Parses the script's reply: 0 not held, 1 deleted, 2 kept, 3 handed over.
	 * @param reply the reply, or {@code null} if there was none
	 * @return the outcome
	 * @throws IllegalStateException if the reply is none of them
	 */
	public static ReleaseOutcome of(@Nullable Long reply) {
		if (reply == null || reply < 0 || reply > 3) {
			throw new IllegalStateException("Unexpected reply of the release script: " + reply);
		}
		return values()[reply.intValue()];
	}

	/**
	 * Returns whether the token held the lock when it was released.
	 * @return {@code false} only for {@link #NOT_HELD}
	 */
	public boolean wasHeld() {
		return this != NOT_HELD;
	}

}
