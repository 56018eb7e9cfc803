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

package dev.distlock.sample.demo;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Percentiles of a set of durations, as a Micrometer {@link Timer} computes them on the
 * client: the count and the maximum are exact, the median and the 99th percentile come
 * from its HdrHistogram with three significant digits (within about 0.1%).
 *
 * @param count how many samples there are
 * @param p50 the median
 * @param p99 the 99th percentile
 * @param max the largest sample
 */
public record Percentiles(long count, Duration p50, Duration p99, Duration max) {

	private static final int SIGNIFICANT_DIGITS = 3;

	/**
	 * Computes the percentiles of samples in nanoseconds. They are recorded into a timer
	 * of a registry of their own and read at once, well within the timer's statistics
	 * window, so no sample expires before it is counted.
	 * @param nanos the samples
	 * @return the percentiles, all zero when there are no samples
	 */
	public static Percentiles ofNanos(Collection<Long> nanos) {
		Timer timer = Timer.builder("demo.samples")
			.publishPercentiles(0.50, 0.99)
			.percentilePrecision(SIGNIFICANT_DIGITS)
			.register(new SimpleMeterRegistry());
		nanos.forEach((sample) -> timer.record(sample, TimeUnit.NANOSECONDS));
		HistogramSnapshot snapshot = timer.takeSnapshot();
		ValueAtPercentile[] percentiles = snapshot.percentileValues();
		return new Percentiles(snapshot.count(), duration(percentiles[0].value(TimeUnit.NANOSECONDS)),
				duration(percentiles[1].value(TimeUnit.NANOSECONDS)), duration(snapshot.max(TimeUnit.NANOSECONDS)));
	}

	private static Duration duration(double nanos) {
		return Duration.ofNanos(Math.round(nanos));
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
