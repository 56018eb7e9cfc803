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
 * One shared-lock implementation under test in the kinds scenarios
 * ({@code ./bench/run kinds}): the read or the write side of a read-write lock, or one
 * permit of a semaphore, acquired (waiting as long as it takes) and released by the same
 * thread.
 */
interface SharedLockContender {

	/**
	 * Returns the name shown in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Prepares a key before its first use, once for all processes: a Redisson semaphore
	 * needs its permits set; distlock takes them from every acquire.
	 * @param key the lock key
	 * @param permits the semaphore's permits
	 */
	default void prepare(String key, int permits) {
	}

	/**
	 * Acquires the key in the given way, waiting as long as it takes.
	 * @param key the lock key
	 * @param access read, write, or one permit
	 * @return the held lock or permit, released by the same thread
	 */
	ExplicitContender.Held acquire(String key, Access access);

	/**
	 * What one holder takes.
	 */
	enum Access {

		/** The read side of a read-write lock, shared with other readers. */
		READ('r'),

		/** The write side of a read-write lock, alone. */
		WRITE('w'),

		/** One of a semaphore's permits. */
		PERMIT('s');

		private final char code;

		Access(char code) {
			this.code = code;
		}

		/**
		 * Returns the letter that stands for this access in the workers' hold files (the
		 * prefix distlock's owner tokens carry for it).
		 * @return the letter
		 */
		char code() {
			return this.code;
		}

		static Access of(char code) {
			for (Access access : values()) {
				if (access.code == code) {
					return access;
				}
			}
			throw new IllegalArgumentException("No access " + code);
		}

	}

}
