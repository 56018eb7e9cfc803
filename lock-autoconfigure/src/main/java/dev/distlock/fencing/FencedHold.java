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

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;

/**
 * The hold a fenced write is made under, and its fencing token: the lock of the current
 * locked method ({@link LockContext}), or a handle given by the caller.
 *
 * @param token the fencing token of the hold's key
 * @param lockKey the Redis key of the lock whose token is written
 * @param lockName the logical name of the lock, the tag of the meters
 */
record FencedHold(long token, String lockKey, String lockName) {

	/**
	 * Finds the hold a write is made under, and checks that its lease is not lost.
	 * @param handle the hold the caller named, or null for the current locked method's
	 * @param lockKey the key of a lock of several keys whose token to write, or null
	 * @param write what is about to be written, for the messages
	 * @return the hold
	 * @throws IllegalStateException if no lock is held, or the hold holds several keys
	 * and none was named
	 * @throws LeaseLostBeforeWriteException if the hold's lease is lost
	 */
	static FencedHold resolve(@Nullable LockHandle handle, @Nullable String lockKey, String write) {
		LockHandle hold = (handle != null) ? handle : LockContext.current()
			.orElseThrow(() -> new IllegalStateException("No distributed lock is held on this thread, so " + write
					+ " has no fencing token: call it from a @DistributedLock method, or pass the LockHandle of "
					+ "a programmatic lock with under(handle)"));
		String key = (lockKey != null) ? lockKey : singleKey(hold, write);
		long token;
		try {
			token = hold.fencingToken(key);
		}
		catch (LockLeaseLostException ex) {
			// A token asked for only now, of a hold that is no longer held: none is
			// issued.
			throw new LeaseLostBeforeWriteException(key, hold.name(), 0, write);
		}
		if (hold.isLeaseLost()) {
			throw new LeaseLostBeforeWriteException(key, hold.name(), token, write);
		}
		return new FencedHold(token, key, hold.name());
	}

	private static String singleKey(LockHandle hold, String write) {
		List<String> keys = hold.keys();
		if (keys.size() != 1) {
			throw new IllegalStateException(
					"The lock held holds several keys " + keys.stream().map(LockKeyQuoting::quote).toList()
							+ ", each with its own fencing token: name the one that protects " + write
							+ " with forLockKey(key)");
		}
		return keys.get(0);
	}

}
