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
