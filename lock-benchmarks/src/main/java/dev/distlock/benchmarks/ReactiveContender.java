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

import reactor.core.publisher.Mono;

/**
 * One reactive lock implementation under test, reduced to what the reactive scenarios
 * need: run a piece of reactive work while holding the lock on a key, waiting as long as
 * it takes to get it, without blocking a thread.
 */
interface ReactiveContender {

	/**
	 * Returns the name shown in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Returns whether the contender excludes holders of one key from each other; the
	 * floor does not, so it only runs where no two operations share a key.
	 * @return whether it is a lock
	 */
	default boolean isLock() {
		return true;
	}

	/**
	 * Acquires the lock on the key when subscribed, runs the work and releases when the
	 * work ends.
	 * @param <T> the work's result type
	 * @param key the lock key
	 * @param work the work done under the lock
	 * @return the work's result
	 */
	<T> Mono<T> withLock(String key, Mono<T> work);

}
