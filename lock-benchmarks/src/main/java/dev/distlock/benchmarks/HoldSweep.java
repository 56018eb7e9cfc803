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
import java.util.Comparator;
import java.util.List;

import dev.distlock.benchmarks.SharedHoldStats.Hold;
import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * What one block's holds show when swept in time order, those of all processes together
 * (the workers' {@link System#nanoTime} is the host's {@code CLOCK_MONOTONIC}): a hold
 * that starts while a hold it excludes is in progress is a violation (a reader while a
 * writer holds, a writer while anyone holds, a permit while all permits are held). Each
 * hold is recorded inside the lock, so the sweep of a correct lock finds none. A hold
 * that starts when another ends does not overlap it.
 *
 * @param violations holds that started while a hold they exclude was in progress
 * @param maxHolders most holds in progress at once, of any access
 * @param maxReaders most readers in progress at once
 */
record HoldSweep(long violations, int maxHolders, int maxReaders) {

	/**
	 * Sweeps one block.
	 * @param block the holds
	 * @param permits the semaphore's permits, for holds of {@link Access#PERMIT}
	 * @return what the sweep found
	 */
	static HoldSweep of(List<Hold> block, int permits) {
		List<long[]> events = new ArrayList<>(block.size() * 2);
		for (Hold hold : block) {
			// time, 0 for an end (ends go first at the same time), 1 for a start; access
			events.add(new long[] { hold.acquired(), 1, hold.access().ordinal() });
			events.add(new long[] { hold.end(), 0, hold.access().ordinal() });
		}
		events.sort(Comparator.<long[]>comparingLong((event) -> event[0]).thenComparingLong((event) -> event[1]));
		int[] holding = new int[Access.values().length];
		long violations = 0;
		int maxHolders = 0;
		int maxReaders = 0;
		for (long[] event : events) {
			Access access = Access.values()[(int) event[2]];
			if (event[1] == 0) {
				holding[access.ordinal()]--;
				continue;
			}
			int readers = holding[Access.READ.ordinal()];
			int writers = holding[Access.WRITE.ordinal()];
			int permitHolders = holding[Access.PERMIT.ordinal()];
			boolean excluded = switch (access) {
				case READ -> writers > 0;
				case WRITE -> readers + writers > 0;
				case PERMIT -> permitHolders >= permits;
			};
			violations += excluded ? 1 : 0;
			holding[access.ordinal()]++;
			maxHolders = Math.max(maxHolders, readers + writers + permitHolders + 1);
			maxReaders = Math.max(maxReaders, holding[Access.READ.ordinal()]);
		}
		return new HoldSweep(violations, maxHolders, maxReaders);
	}

}
