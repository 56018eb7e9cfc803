package dev.distlock.memory;

import java.time.Duration;

/**
 * Durations in nanoseconds for deadlines by {@link System#nanoTime()}: one too long to
 * count in a {@code long} ("wait forever", a lease of centuries) becomes about 146 years,
 * so that adding it to a reading of the clock cannot overflow and comparisons by
 * difference stay right.
 */
final class SaturatedNanos {

	/** The longest duration counted: half the range of {@link System#nanoTime()}. */
	static final long MAX = Long.MAX_VALUE / 2;

	private SaturatedNanos() {
	}

	/**
	 * Returns the duration in nanoseconds, at most {@link #MAX}.
	 * @param duration a duration of zero or more
	 * @return its nanoseconds, saturated
	 */
	static long of(Duration duration) {
		try {
			return Math.min(duration.toNanos(), MAX);
		}
		catch (ArithmeticException ex) {
			return MAX;
		}
	}

}
