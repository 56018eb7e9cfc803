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

package dev.distlock.support;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * Decides whether a thread that holds a key may re-enter it with another acquisition's
 * options, before anything is sent to Redis. An exclusive lock re-enters an exclusive
 * lock; the read or the write lock re-enters a write lock; the read lock re-enters a read
 * lock; a semaphore's permit re-enters a permit of the same semaphore (the thread keeps
 * its one permit). Asking for the write lock while holding the read lock would wait for
 * itself; asking for another kind of lock on the same key is a misuse.
 */
public final class ReentryRules {

	private ReentryRules() {
	}

	/**
	 * Checks that a hold with the given options may be re-entered with others.
	 * @param key the Redis key of the lock
	 * @param held the options the thread holds the key with
	 * @param asked the options of the new acquisition
	 * @throws IllegalLockUpgradeException if the thread holds the read lock and asks for
	 * the write lock
	 * @throws LockMisconfigurationException if it asks for another kind of lock
	 */
	public static void check(String key, LockOptions held, LockOptions asked) {
		if (held.permits() != asked.permits()
				|| (held.mode() == LockMode.EXCLUSIVE) != (asked.mode() == LockMode.EXCLUSIVE)) {
			throw new LockMisconfigurationException(key,
					"Lock " + LockKeyQuoting.quote(key) + " is held by this " + "thread as " + describe(held)
							+ ", and this call asks for " + describe(asked) + " on the same "
							+ "key: a key is one kind of lock only. Give every use of the key the same kind (mode and "
							+ "permits), or give the other use a key of its own.");
		}
		if (held.mode() == LockMode.READ && asked.mode() == LockMode.WRITE) {
			throw new IllegalLockUpgradeException(key);
		}
	}

	/**
	 * Describes the kind of lock the options ask for, such as "a read lock" or "a
	 * semaphore of 5 permits".
	 * @param options the options
	 * @return the description
	 */
	public static String describe(LockOptions options) {
		if (options.permits() > 1) {
			return "a semaphore of " + options.permits() + " permits";
		}
		return switch (options.mode()) {
			case EXCLUSIVE -> "an exclusive lock";
			case READ -> "a read lock";
			case WRITE -> "a write lock";
		};
	}

}
