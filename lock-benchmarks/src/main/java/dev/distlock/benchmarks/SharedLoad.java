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
import java.util.SplittableRandom;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * The two scenarios of {@code ./bench/run kinds}, with the contenders each measures (by
 * {@link KindsContenderSet} id, in table order) and what each of their operations takes.
 */
enum SharedLoad {

	/**
	 * One key; each operation reads with the probability {@link KindsSizes#readShare()},
	 * else writes.
	 */
	READ_MOSTLY("read-mostly", List.of(KindsContenderSet.DISTLOCK, KindsContenderSet.REDISSON_READ_WRITE)) {

		@Override
		Access next(SplittableRandom random, double readShare) {
			return (random.nextDouble() < readShare) ? Access.READ : Access.WRITE;
		}

	},

	/**
	 * One semaphore; each operation takes one of its {@link KindsSizes#permits()}.
	 */
	PERMITS("permits", List.of(KindsContenderSet.DISTLOCK, KindsContenderSet.REDISSON_SEMAPHORE,
			KindsContenderSet.REDISSON_EXPIRABLE_SEMAPHORE)) {

		@Override
		Access next(SplittableRandom random, double readShare) {
			return Access.PERMIT;
		}

	};

	private final String id;

	private final List<String> contenders;

	SharedLoad(String id, List<String> contenders) {
		this.id = id;
		this.contenders = contenders;
	}

	/**
	 * Returns the scenario's name in keys, commands and the usage text.
	 * @return the id
	 */
	String id() {
		return this.id;
	}

	/**
	 * Returns the contenders the scenario measures.
	 * @return their ids, in table order
	 */
	List<String> contenders() {
		return this.contenders;
	}

	/**
	 * Picks what the next operation of a thread takes.
	 * @param random the thread's random numbers
	 * @param readShare the probability of a read, where there are reads
	 * @return the access
	 */
	abstract Access next(SplittableRandom random, double readShare);

	static SharedLoad of(String id) {
		for (SharedLoad load : values()) {
			if (load.id.equals(id)) {
				return load;
			}
		}
		throw new IllegalArgumentException("No scenario " + id);
	}

}
