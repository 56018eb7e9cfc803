package dev.distlock.autoconfigure;

import java.time.Duration;

/**
 * Writes durations the way they are written in properties, in the largest unit that is
 * exact: {@code 1500ms}, {@code -1s}, {@code 2m}.
 */
final class DurationText {

	private static final long[] SECONDS = { 86_400, 3_600, 60, 1 };

	private static final String[] SECOND_UNITS = { "d", "h", "m", "s" };

	private static final long[] NANOS = { 1_000_000, 1_000, 1 };

	private static final String[] NANO_UNITS = { "ms", "us", "ns" };

	private DurationText() {
	}

	static String of(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.getNano() == 0) {
			long seconds = duration.getSeconds();
			for (int i = 0; i < SECONDS.length; i++) {
				if (seconds % SECONDS[i] == 0) {
					return (seconds / SECONDS[i]) + SECOND_UNITS[i];
				}
			}
		}
		long nanos;
		try {
			nanos = duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return duration.toString();
		}
		int unit = 0;
		while (nanos % NANOS[unit] != 0) {
			unit++;
		}
		return (nanos / NANOS[unit]) + NANO_UNITS[unit];
	}

}
