package dev.distlock.sample.demo;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * Nearest-rank percentiles of a set of durations.
 *
 * @param count how many samples there are
 * @param p50 the median
 * @param p99 the 99th percentile
 * @param max the largest sample
 */
public record Percentiles(int count, Duration p50, Duration p99, Duration max) {

	/**
	 * Computes the percentiles of samples in nanoseconds.
	 * @param nanos the samples
	 * @return the percentiles, all zero when there are no samples
	 */
	public static Percentiles ofNanos(Collection<Long> nanos) {
		List<Long> sorted = nanos.stream().sorted().toList();
		if (sorted.isEmpty()) {
			return new Percentiles(0, Duration.ZERO, Duration.ZERO, Duration.ZERO);
		}
		return new Percentiles(sorted.size(), rank(sorted, 0.50), rank(sorted, 0.99),
				Duration.ofNanos(sorted.get(sorted.size() - 1)));
	}

	private static Duration rank(List<Long> sorted, double percentile) {
		int index = (int) Math.ceil(percentile * sorted.size()) - 1;
		return Duration.ofNanos(sorted.get(Math.max(0, index)));
	}

	@Override
	public String toString() {
		return String.format("p50 %s, p99 %s, max %s (%d samples)", millis(this.p50), millis(this.p99),
				millis(this.max), this.count);
	}

	private static String millis(Duration duration) {
		return String.format("%.1f ms", duration.toNanos() / 1_000_000.0);
	}

}
