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

package dev.distlock.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Times the calls of a scenario, keeping the slowest. */
final class TimedCalls {

	private final List<Long> nanos = new ArrayList<>();

	<T> T time(Supplier<T> call) {
		long start = System.nanoTime();
		try {
			return call.get();
		}
		finally {
			this.nanos.add(System.nanoTime() - start);
		}
	}

	int count() {
		return this.nanos.size();
	}

	long slowestMs() {
		return this.nanos.stream().mapToLong(Long::longValue).max().orElse(0) / 1_000_000;
	}

}
