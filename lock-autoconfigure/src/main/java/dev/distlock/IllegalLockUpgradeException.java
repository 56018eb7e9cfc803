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

package dev.distlock;

/**
 * Thrown when a thread that holds the read lock of a key asks for the write lock of the
 * same key: the writer would wait until every reader has released, itself included, so it
 * would wait for itself. Nothing is sent to Redis, and a locked method is not invoked.
 * Take the write lock first instead: a thread holding the write lock may take the read
 * lock inside it.
 */
public class IllegalLockUpgradeException extends DistributedLockException {

	private final String key;

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 */
	public IllegalLockUpgradeException(String key) {
		super("Cannot take the write lock of " + LockKeyQuoting.quote(key) + ": this thread holds its read lock, "
				+ "and the write lock would wait for itself (a writer waits until every reader has released). "
				+ "Take the write lock first (the read lock may be taken inside it), or release the read lock "
				+ "before taking the write lock.", null);
		this.key = key;
	}

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
