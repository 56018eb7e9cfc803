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
 * One lock implementation under test, reduced to what every scenario needs: run a
 * critical section while holding the lock on a key, waiting as long as it takes to get
 * it.
 */
interface Contender {

	/**
	 * Returns the name shown in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Acquires the lock on the key (waiting as long as it takes), runs the section and
	 * releases.
	 * @param key the lock key
	 * @param section the work done under the lock
	 */
	void runLocked(String key, Runnable section);

}
