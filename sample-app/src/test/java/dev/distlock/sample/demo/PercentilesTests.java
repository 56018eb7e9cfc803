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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * The demo report's percentiles: exact count and maximum, percentiles within 0.1% of the
 * nearest-rank values of the samples.
 */
class PercentilesTests {

	@Test
	void percentilesAreWithinATenthOfAPercentOfTheNearestRank() {
		List<Long> nanos = new ArrayList<>();
		for (long i = 1; i <= 1000; i++) {
			nanos.add(i * 13_579);
		}
		Collections.shuffle(nanos, new Random(42));
		Percentiles percentiles = Percentiles.ofNanos(nanos);
		assertThat(percentiles.count()).isEqualTo(1000);
		assertThat(percentiles.max()).isEqualTo(Duration.ofNanos(1000 * 13_579));
		assertThat(percentiles.p50().toNanos()).isCloseTo(500 * 13_579, withinPercentage(0.1));
		assertThat(percentiles.p99().toNanos()).isCloseTo(990 * 13_579, withinPercentage(0.1));
	}

	@Test
	void percentilesSpanningMicrosecondsToSecondsKeepTheirPrecision() {
		List<Long> nanos = List.of(1_000L, 2_000L, 3_000L, 1_000_000L, 5_000_000_000L);
		Percentiles percentiles = Percentiles.ofNanos(nanos);
		assertThat(percentiles.count()).isEqualTo(5);
		assertThat(percentiles.p50().toNanos()).isCloseTo(3_000, withinPercentage(0.1));
		assertThat(percentiles.p99().toNanos()).isCloseTo(5_000_000_000L, withinPercentage(0.1));
		assertThat(percentiles.max()).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void noSamplesGiveZeros() {
		Percentiles percentiles = Percentiles.ofNanos(List.of());
		assertThat(percentiles).isEqualTo(new Percentiles(0, Duration.ZERO, Duration.ZERO, Duration.ZERO));
	}

	@Test
	void printsMillisecondsToOneDecimal() {
		Percentiles percentiles = Percentiles.ofNanos(List.of(2_000_000L));
		assertThat(percentiles).hasToString("p50 2.0 ms, p99 2.0 ms, max 2.0 ms (1 samples)");
	}

}
