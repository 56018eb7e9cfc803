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

package dev.distlock.fencing;

import org.jspecify.annotations.Nullable;

import dev.distlock.DistributedLockException;
import dev.distlock.LockKeyQuoting;

/**
 * Thrown when a store refused a fenced write because the data carries a higher fencing
 * token than the writer's: a later holder of the lock has written since, so this holder's
 * lease ran out while it worked (a pause, a slow network) and its write would have
 * overwritten newer data. Nothing was written. The locked work should stop: its view of
 * the data is stale.
 */
public class StaleFencingTokenException extends DistributedLockException {

	private final String store;

	private final String target;

	private final long fencingToken;

	private final @Nullable Long storedFencingToken;

	private final String lockKey;

	private final String lockName;

	/**
	 * Creates the exception.
	 * @param store the kind of store that refused the write: {@code jdbc} or
	 * {@code redis}
	 * @param target what was to be written: the table and the row's key, or the Redis key
	 * (and hash field)
	 * @param fencingToken the writer's fencing token
	 * @param storedFencingToken the token stored with the data, if it was read
	 * @param lockKey the Redis key of the lock the write was made under
	 * @param lockName the logical name of that lock
	 */
	public StaleFencingTokenException(String store, String target, long fencingToken, @Nullable Long storedFencingToken,
			String lockKey, String lockName) {
		super("Fenced write to " + target + " refused: it was made with fencing token " + fencingToken + " of lock "
				+ LockKeyQuoting.quote(lockKey) + " (name '" + lockName + "'), and the data already carries "
				+ ((storedFencingToken != null) ? "token " + storedFencingToken : "a higher token")
				+ " from a later holder of the lock. This holder's lease ran out while it worked; nothing was "
				+ "written. Stop the locked work: its view of the data is stale.", null);
		this.store = store;
		this.target = target;
		this.fencingToken = fencingToken;
		this.storedFencingToken = storedFencingToken;
		this.lockKey = lockKey;
		this.lockName = lockName;
	}

	/**
	 * Returns the kind of store that refused the write.
	 * @return {@code jdbc} or {@code redis}
	 */
	public String getStore() {
		return this.store;
	}

	/**
	 * Returns what was to be written.
	 * @return the table and the row's key, or the Redis key (and hash field)
	 */
	public String getTarget() {
		return this.target;
	}

	/**
	 * Returns the writer's fencing token.
	 * @return the token the write was made with
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Returns the fencing token stored with the data, which is higher than the writer's.
	 * @return the stored token, or null if the store did not say
	 */
	public @Nullable Long getStoredFencingToken() {
		return this.storedFencingToken;
	}

	/**
	 * Returns the Redis key of the lock the write was made under.
	 * @return the lock key
	 */
	public String getLockKey() {
		return this.lockKey;
	}

	/**
	 * Returns the logical name of the lock the write was made under.
	 * @return the lock name
	 */
	public String getLockName() {
		return this.lockName;
	}

}
