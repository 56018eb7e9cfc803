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

package dev.distlock.redis;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.util.Assert;

import dev.distlock.LockKind;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.monitor.HeldLockInfo;
import dev.distlock.redis.monitor.LockHolderInfo;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.protocol.KeyInspection;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * Reads the state of a lock key in Redis for {@link RedisLockMonitor#keyState(String)}:
 * whether it exists, its kind and time to live, and which of this client's holds of the
 * key, if any, it belongs to; of a read-write lock or semaphore, every holder (its kind,
 * its lease, whether it is this client's), the permits and the waiters. The owner tokens
 * of the holds are compared in Redis, in the same round trip, and never read back, so
 * they never leave the client.
 */
final class KeyStateReader {

	private final RedisLockCommands commands;

	private final HeldLocks held;

	KeyStateReader(RedisLockCommands commands, HeldLocks held) {
		this.commands = commands;
		this.held = held;
	}

	/**
	 * Reads the state of a key in one round trip.
	 * @param key the Redis key, including the client's key prefix
	 * @return the state of the key
	 * @throws IllegalArgumentException if the key is blank
	 * @throws LockMisconfigurationException if Redis refuses the inspection (a missing
	 * permission, a key of another type)
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws LockMisconfigurationException if Redis refuses the inspection (a
	 * permission, a key of another type)
	 */
	LockKeyState read(String key) {
		Assert.hasText(key, "Lock key must not be blank");
		List<RedisLockHandle> mine = this.held.held(key);
		KeyInspection state;
		try {
			state = this.commands.monitoring().inspect(key, mine.stream().map(RedisLockHandle::token).toList());
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(key, "inspect", ex);
			throw (misconfigured != null) ? misconfigured
					: this.commands.unavailable(key, LockOptions.UNNAMED, "inspect", ex);
		}
		HeldLockInfo hold = info(mine, state.holderIndex());
		KeyInspection.Shared shared = state.shared();
		if (shared == null) {
			return new LockKeyState(key, state.exists(), state.remaining(), hold != null, hold,
					state.exists() ? LockKind.EXCLUSIVE : null, null, null, List.of());
		}
		List<LockHolderInfo> holders = shared.holders()
			.stream()
			.map((holder) -> new LockHolderInfo(holder.kind(), holder.leaseRemaining(), holder.tokenIndex() >= 0,
					info(mine, holder.tokenIndex())))
			.toList();
		boolean semaphore = shared.permits() > 0;
		return new LockKeyState(key, true, state.remaining(), hold != null, hold,
				semaphore ? LockKind.SEMAPHORE : LockKind.READ_WRITE, semaphore ? shared.permits() : null,
				shared.waiters(), holders);
	}

	private static @Nullable HeldLockInfo info(List<RedisLockHandle> mine, int index) {
		return (index >= 0 && index < mine.size()) ? mine.get(index).info() : null;
	}

}
