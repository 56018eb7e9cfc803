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

package dev.distlock.test.concurrent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records when each holder of a lock started and ended its work (by
 * {@link System#nanoTime()} in this JVM), to prove that no two holds overlapped. Safe to
 * record into from many threads.
 */
public final class HoldLog {

	private final ConcurrentLinkedQueue<long[]> holds = new ConcurrentLinkedQueue<>();

	/**
	 * Creates an empty log; share one between every holder of the lock under test.
	 */
	public HoldLog() {
	}

	/**
	 * Records one hold.
	 * @param startNanos when the holder started its work
	 * @param endNanos when the holder finished its work
	 */
	public void record(long startNanos, long endNanos) {
		this.holds.add(new long[] { startNanos, endNanos });
	}

	/**
	 * Asserts how many holds were recorded and that none overlapped another.
	 * @param expectedHolds the number of holds expected
	 */
	public void assertSerial(int expectedHolds) {
		List<long[]> sorted = new ArrayList<>(this.holds);
		sorted.sort(Comparator.comparingLong((long[] hold) -> hold[0]));
		assertThat(sorted).hasSize(expectedHolds);
		int overlaps = 0;
		for (int i = 1; i < sorted.size(); i++) {
			if (sorted.get(i)[0] < sorted.get(i - 1)[1]) {
				overlaps++;
			}
		}
		assertThat(overlaps).as("holds that began before the previous one ended").isZero();
	}

}
