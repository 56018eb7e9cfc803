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
