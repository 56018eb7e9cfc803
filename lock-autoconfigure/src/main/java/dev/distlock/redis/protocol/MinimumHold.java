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

import dev.distlock.Deadlines;

/**
 * How long a released lock must still be kept from everyone: until its hold's minimum
 * hold has passed, counted by this process from when it learned of the grant, which is no
 * earlier than Redis granted it. A release, the first or one retried in the background,
 * sends what is left of it as of its own send, rounded up to the millisecond: Redis,
 * which runs the release no earlier than it was sent, then keeps the lock at least until
 * the minimum hold has passed since the grant, however late the release reaches it (a
 * late one keeps it longer, by the time it spent on its way).
 *
 * @param endNanos when the minimum hold ends, by {@link System#nanoTime()}
 */
public record MinimumHold(long endNanos) {

	/** No minimum hold: ended before any release is sent. */
	public static final MinimumHold NONE = new MinimumHold(System.nanoTime());

	/**
	 * The longest minimum hold counted, a quarter of the range of
	 * {@link System#nanoTime()} (about 73 years), so that its end never wraps around.
	 */
	private static final long LONGEST_NANOS = Long.MAX_VALUE / 4;

	private static final long NANOS_PER_MILLI = 1_000_000;

	/**
	 * Returns the minimum hold of a hold.
	 * @param grantedNanos when this process learned of the grant, by
	 * {@link System#nanoTime()}
	 * @param minHoldTime how long the lock is kept at least from the grant
	 * @return when the minimum hold ends
	 */
	public static MinimumHold from(long grantedNanos, Duration minHoldTime) {
		return new MinimumHold(grantedNanos + Math.min(Deadlines.nanos(minHoldTime), LONGEST_NANOS));
	}

	/**
	 * Returns how long Redis must still keep the lock, as of now: what a release sent now
	 * asks for.
	 * @return the milliseconds, rounded up; 0 once the minimum hold has passed
	 */
	public long remainingMillis() {
		long left = this.endNanos - System.nanoTime();
		return (left <= 0) ? 0 : (left + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI;
	}

}
