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

import dev.distlock.DistributedLockException;
import dev.distlock.LockKeyQuoting;

/**
 * Thrown instead of a fenced write when the lease of the lock it would be made under is
 * already lost (expired, taken over or force-released, or run out by this process's own
 * count): the write is not sent. Another holder may have been granted the lock; its
 * writes carry a higher fencing token, and the store would refuse this one anyway if they
 * came first. The work of the locked method so far may have overlapped with another
 * holder's.
 */
public class LeaseLostBeforeWriteException extends DistributedLockException {

	private final String lockKey;

	private final long fencingToken;

	/**
	 * Creates the exception.
	 * @param lockKey the Redis key of the lock whose lease is lost
	 * @param lockName the logical name of the lock
	 * @param fencingToken the fencing token of the lost hold, or 0 if none was issued to
	 * it (a lock acquired without a token, which asked for it only after losing it)
	 * @param write what was about to be written
	 */
	public LeaseLostBeforeWriteException(String lockKey, String lockName, long fencingToken, String write) {
		super("The lease of lock " + LockKeyQuoting.quote(lockKey) + " (name '" + lockName + "', "
				+ ((fencingToken != 0) ? "fencing token " + fencingToken : "no fencing token issued") + ") is lost, so "
				+ write + " was not sent: another holder may hold the lock now. "
				+ "Use a lease time longer than the locked work takes, or auto-renewal.", null);
		this.lockKey = lockKey;
		this.fencingToken = fencingToken;
	}

	/**
	 * Returns the Redis key of the lock whose lease is lost.
	 * @return the lock key
	 */
	public String getLockKey() {
		return this.lockKey;
	}

	/**
	 * Returns the fencing token of the lost hold.
	 * @return the fencing token, or 0 if none was issued to it
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
