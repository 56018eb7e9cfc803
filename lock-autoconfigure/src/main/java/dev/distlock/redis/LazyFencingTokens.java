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

import org.springframework.dao.DataAccessException;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.lease.RenewalListener;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * Fencing tokens issued when they are first asked for. An exclusive lock that is free and
 * that nobody waits for is acquired with one plain {@code SET NX PX}
 * ({@link RedisLockCommands#acquirePlainly}), which reserves no fencing token: its holder
 * gets one from Redis the first time it asks ({@link RedisLockHandle#fencingToken()}), by
 * a script that issues it only while the key still holds the hold's owner token. Tokens
 * are therefore only ever issued to the lock's current owner, and still increase in the
 * order of the holds that use them; a holder that lost its lock gets
 * {@link LockLeaseLostException} instead of a token.
 * <p>
 * Locks whose holders do ask pay a round trip more for it, so the client remembers the
 * names of the locks whose holds asked for a token, and acquires those with the acquire
 * script, which grants the token with the lock ({@link RedisLockCommands#attempt}).
 */
final class LazyFencingTokens implements RedisLockHandle.TokenIssuer {

	private final RedisLockCommands commands;

	private final RenewalListener<RedisLockHandle> reports;

	/**
	 * Creates the issuing of tokens of one client.
	 * @param commands the client's commands
	 * @param reports where a hold found to have lost its key is reported
	 */
	LazyFencingTokens(RedisLockCommands commands, RenewalListener<RedisLockHandle> reports) {
		this.commands = commands;
		this.reports = reports;
	}

	@Override
	public long issue(RedisLockHandle hold, boolean released) {
		if (released) {
			throw new IllegalStateException("Cannot issue the fencing token of lock " + hold.key()
					+ ": its handle was released before the token was asked for. Ask for the token while holding "
					+ "the lock (LockContext.fencingToken(), LockHandle.fencingToken()), before release().");
		}
		if (hold.isLeaseLost()) {
			throw lost(hold, "its fencing token was asked for after the lease had run out");
		}
		long token;
		try {
			token = this.commands.issueFencingToken(hold.key(), hold.token(), hold.name());
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(hold.key(),
					LockUnavailableException.FENCING_TOKEN, ex);
			throw (misconfigured != null) ? misconfigured
					: this.commands.unavailable(hold.key(), hold.name(), LockUnavailableException.FENCING_TOKEN, ex);
		}
		if (token == AcquireReply.Granted.NOT_ISSUED) {
			this.reports.tokenLost(hold,
					"its key was gone or held by another owner when its fencing token was asked for");
			throw lost(hold, "its key was gone or held by another owner when its fencing token was asked for");
		}
		if (hold.isLeaseLost()) {
			// Redis issued it, but the lease ran out by the local count before the reply:
			// the token must not be used.
			throw lost(hold, "its lease ran out before Redis issued its fencing token");
		}
		return token;
	}

	private static LockLeaseLostException lost(RedisLockHandle hold, String consequence) {
		return LockLeaseLostException.whileHeld(hold, consequence, null);
	}

}
