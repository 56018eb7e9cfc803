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
