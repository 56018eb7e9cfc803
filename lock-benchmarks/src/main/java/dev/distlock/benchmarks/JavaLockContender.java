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

import java.util.concurrent.locks.Lock;

/**
 * A contender whose locks are {@link Lock}s obtained per key (Redisson's {@code RLock},
 * Spring Integration's registry locks): {@code lock()} to acquire, {@code unlock()} to
 * release, and the library's own lease handling for long holds.
 */
abstract class JavaLockContender implements ExplicitContender {

	/**
	 * Returns the library's lock for a key.
	 * @param key the lock key
	 * @return the lock
	 */
	abstract Lock lockFor(String key);

	@Override
	public Held acquire(String key) {
		Lock lock = lockFor(key);
		lock.lock();
		return lock::unlock;
	}

	@Override
	public Held acquireLongHeld(String key) {
		return acquire(key);
	}

}
