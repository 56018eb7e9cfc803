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
 * Deadlines by {@link System#nanoTime()} for lock clients: a duration too long to count
 * in nanoseconds ("wait forever", a lease of centuries) counts as about 146 years, half
 * the range of {@code System.nanoTime()}, so that adding it to a reading of the clock
 * cannot overflow and comparisons by difference stay right.
 */
public final class Deadlines {

	/**
	 * The longest duration counted, in nanoseconds: half the range of
	 * {@link System#nanoTime()}.
	 */
	public static final long LONGEST_NANOS = Long.MAX_VALUE / 2;

	private Deadlines() {
	}

	/**
	 * Returns a duration in nanoseconds, at most {@link #LONGEST_NANOS}.
	 * @param duration a duration of zero or more
	 * @return its nanoseconds, saturated
	 */
	public static long nanos(Duration duration) {
		try {
			return Math.min(duration.toNanos(), LONGEST_NANOS);
		}
		catch (ArithmeticException ex) {
			return LONGEST_NANOS;
		}
	}

	/**
	 * Returns when a duration from a reading of {@link System#nanoTime()} ends.
	 * @param startNanos the reading the duration starts at
	 * @param duration a duration of zero or more
	 * @return the deadline by {@code System.nanoTime()}
	 */
	public static long after(long startNanos, Duration duration) {
		return startNanos + nanos(duration);
	}

}
