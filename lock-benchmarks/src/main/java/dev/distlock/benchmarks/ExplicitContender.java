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
 * A {@link Contender} whose acquire and release are separate calls, so that it can hold
 * many locks at once (scenario 4).
 */
interface ExplicitContender extends Contender {

	/**
	 * Acquires the lock with the lease used for short critical sections.
	 * @param key the lock key
	 * @return the held lock
	 */
	Held acquire(String key);

	/**
	 * Acquires a lock meant to be held for a long time: with an auto-renewed lease where
	 * the library has one, else with a long fixed lease.
	 * @param key the lock key
	 * @return the held lock
	 */
	Held acquireLongHeld(String key);

	/**
	 * Describes the lease of {@link #acquireLongHeld}, as shown in the tables.
	 * @return the description
	 */
	String longLease();

	@Override
	default void runLocked(String key, Runnable section) {
		Held held = acquire(key);
		try {
			section.run();
		}
		finally {
			held.release();
		}
	}

	/**
	 * A held lock.
	 */
	@FunctionalInterface
	interface Held {

		/**
		 * Releases the lock.
		 */
		void release();

	}

}
