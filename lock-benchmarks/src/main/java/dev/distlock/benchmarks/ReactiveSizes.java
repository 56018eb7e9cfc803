package dev.distlock.benchmarks;

import java.util.List;

/**
 * How much the reactive scenarios measure: the full run, or the smoke run that only
 * checks the harness.
 *
 * @param warmupMillis one unmeasured block per contender and load first
 * @param blockMillis length of one measured block
 * @param rounds measured blocks per contender and load, rotating the contenders
 * @param loads the loads, in table order
 */
record ReactiveSizes(int warmupMillis, int blockMillis, int rounds, List<ReactiveLoad> loads) {

	static ReactiveSizes full() {
		return new ReactiveSizes(2_000, 2_000, 6,
				List.of(new ReactiveLoad(10_000, 1), new ReactiveLoad(10_000, 64), new ReactiveLoad(4, 64)));
	}

	static ReactiveSizes smoke() {
		return new ReactiveSizes(100, 300, 1,
				List.of(new ReactiveLoad(1_000, 1), new ReactiveLoad(1_000, 16), new ReactiveLoad(2, 16)));
	}

}
