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
 * How much the kinds scenarios ({@code ./bench/run kinds}) measure: the full run, or the
 * smoke run that only checks the harness.
 *
 * @param workers worker JVMs
 * @param threadsPerWorker threads per worker JVM, each taking the lock until its block
 * ends; in all more than {@code permits}
 * @param criticalSectionMicros how long each holder keeps the lock or permit
 * @param readShare read-mostly: the probability that an operation reads
 * @param permits permits: the semaphore's permits
 * @param warmupMillis one unmeasured block per contender and scenario first
 * @param blockMillis length of one measured block
 * @param rounds measured blocks per contender and scenario, rotating the contenders
 */
record KindsSizes(int workers, int threadsPerWorker, int criticalSectionMicros, double readShare, int permits,
		int warmupMillis, int blockMillis, int rounds) {

	static KindsSizes full() {
		return new KindsSizes(2, 6, 1_000, 0.9, 5, 1_000, 2_000, 6);
	}

	static KindsSizes smoke() {
		return new KindsSizes(2, 4, 1_000, 0.9, 5, 300, 400, 1);
	}

	/**
	 * Returns every thread of every worker.
	 * @return the threads
	 */
	int threads() {
		return this.workers * this.threadsPerWorker;
	}

}
