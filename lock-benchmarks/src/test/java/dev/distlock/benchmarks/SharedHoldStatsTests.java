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

package dev.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.distlock.benchmarks.SharedHoldStats.Hold;
import dev.distlock.benchmarks.SharedLockContender.Access;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks the kinds scenarios make while measuring find what they look for: the smoke
 * test's zero violations would mean nothing if the sweep found none anyway.
 */
class SharedHoldStatsTests {

	private static final int PERMITS = 2;

	@Test
	void readersTogetherAreNoViolation() {
		SharedHoldStats stats = stats(hold(Access.READ, 0, 10), hold(Access.READ, 5, 15), hold(Access.READ, 6, 8));
		assertThat(stats.violations()).isZero();
		assertThat(stats.maxReaders()).isEqualTo(3);
		assertThat(stats.maxHolders()).isEqualTo(3);
	}

	@Test
	void aReaderBesideAWriterIsAViolationWhicheverStartsFirst() {
		assertThat(stats(hold(Access.WRITE, 0, 10), hold(Access.READ, 5, 15)).violations()).isOne();
		assertThat(stats(hold(Access.READ, 0, 10), hold(Access.WRITE, 5, 15)).violations()).isOne();
	}

	@Test
	void twoWritersTogetherAreAViolation() {
		assertThat(stats(hold(Access.WRITE, 0, 10), hold(Access.WRITE, 9, 15)).violations()).isOne();
	}

	@Test
	void aHoldStartingWhenTheLastEndsIsNoViolation() {
		SharedHoldStats stats = stats(hold(Access.WRITE, 0, 10), hold(Access.READ, 10, 20), hold(Access.WRITE, 20, 30));
		assertThat(stats.violations()).isZero();
		assertThat(stats.maxHolders()).isOne();
	}

	@Test
	void morePermitHoldersThanPermitsAreAViolation() {
		SharedHoldStats within = stats(hold(Access.PERMIT, 0, 10), hold(Access.PERMIT, 1, 10),
				hold(Access.PERMIT, 10, 20));
		assertThat(within.violations()).isZero();
		assertThat(within.maxHolders()).isEqualTo(PERMITS);
		SharedHoldStats beyond = stats(hold(Access.PERMIT, 0, 10), hold(Access.PERMIT, 1, 10),
				hold(Access.PERMIT, 9, 20));
		assertThat(beyond.violations()).isOne();
		assertThat(beyond.maxHolders()).isEqualTo(PERMITS + 1);
	}

	@Test
	void writesMissingFromTheCounterAreLostIncrementsAndReadsThatSawAWriteAreTorn() {
		SharedHoldStats stats = new SharedHoldStats("lock", PERMITS);
		stats.add(new ArrayList<>(List.of(hold(Access.WRITE, 0, 10), hold(Access.WRITE, 10, 20),
				new Hold("w0-t1", Access.READ, 20, 20, 30, true))), 1);
		assertThat(stats.lostIncrements()).isOne();
		assertThat(stats.tornReads()).isOne();
		assertThat(stats.ops()).isEqualTo(3);
		assertThat(stats.latency(Access.WRITE).getTotalCount()).isEqualTo(2);
	}

	private static SharedHoldStats stats(Hold... holds) {
		SharedHoldStats stats = new SharedHoldStats("lock", PERMITS);
		stats.add(new ArrayList<>(List.of(holds)), 0);
		return stats;
	}

	private static Hold hold(Access access, long acquired, long end) {
		return new Hold("w0-t0", access, acquired, acquired, end, false);
	}

}
