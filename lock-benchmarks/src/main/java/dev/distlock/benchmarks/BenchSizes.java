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

/**
 * How much each scenario measures: the full run, or the smoke run that only checks the
 * harness.
 *
 * @param warmupPairs uncontended: pairs per contender and key mode before measuring
 * @param measuredPairs uncontended: measured pairs per contender and key mode
 * @param rounds uncontended: blocks per contender and key mode, alternating contenders
 * @param workers contended: worker JVMs
 * @param threadsPerWorker contended: threads per worker JVM
 * @param criticalSectionMicros contended: how long each holder keeps the lock
 * @param contendedWarmupMillis contended: one unmeasured block per contender first
 * @param contendedBlockMillis contended: length of one measured block
 * @param contendedRounds contended: measured blocks per contender
 * @param manyKeysThreads many keys: threads
 * @param manyKeys many keys: distinct keys the threads pick from
 * @param manyKeysBlockMillis many keys: length of one block
 * @param manyKeysRounds many keys: blocks per contender
 * @param heldLocks held: locks held at once
 * @param heldSeconds held: first measuring window, after acquiring
 * @param churnCycles held: release-all-and-reacquire cycles after the first window
 * @param afterChurnSeconds held: second measuring window, after the churn
 */
record BenchSizes(int warmupPairs, int measuredPairs, int rounds, int workers, int threadsPerWorker,
		int criticalSectionMicros, int contendedWarmupMillis, int contendedBlockMillis, int contendedRounds,
		int manyKeysThreads, int manyKeys, int manyKeysBlockMillis, int manyKeysRounds, int heldLocks, int heldSeconds,
		int churnCycles, int afterChurnSeconds) {

	static BenchSizes full() {
		return new BenchSizes(5_000, 20_000, 20, 2, 4, 1_000, 1_000, 2_000, 6, 16, 1_000, 1_000, 6, 10_000, 45, 5, 30);
	}

	static BenchSizes smoke() {
		return new BenchSizes(200, 300, 3, 2, 4, 1_000, 0, 400, 1, 16, 1_000, 200, 1, 200, 1, 1, 1);
	}

}
