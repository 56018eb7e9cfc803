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

import java.util.function.UnaryOperator;
import java.util.List;

import org.springframework.dao.DataAccessException;

import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.ReleaseOutcome;
import dev.distlock.redis.protocol.RestartQuarantine;

/**
 * Exercises every command and permission a lock needs, on a key of its own in distlock's
 * namespace (on a cluster, one in a slot of each master), for health checks: one owner
 * takes the lock, a second queues for it, the first releases and so hands it over
 * (publishing on the client's release channel of the key, where nobody waits for the
 * second owner's token), and the second releases. Each run uses fresh tokens and a fresh
 * key with a short lease, so an interrupted run leaves nothing behind for long. During a
 * restart quarantine no lock is granted, and the check fails saying so.
 */
final class LockingProbe {

	private static final long LEASE_MILLIS = 2_000;

	private final RedisLockCommands commands;

	private final OwnerTokens tokens;

	private final UnaryOperator<String> channelOf;

	LockingProbe(RedisLockCommands commands, OwnerTokens tokens, UnaryOperator<String> channelOf) {
		this.commands = commands;
		this.tokens = tokens;
		this.channelOf = channelOf;
	}

	/**
	 * Locks, queues, hands over and releases the probe's key; on a cluster, a key in a
	 * slot of each master, so that a master that cannot be reached (a killed one whose
	 * replica is not yet promoted, or whose promotion the client has not yet learned of)
	 * fails the check whichever slots it serves.
	 * @throws DataAccessException if Redis cannot be reached or refuses a command
	 * @throws IllegalStateException if Redis answers a step other than a lock would need
	 */
	void run() {
		List<Integer> slots = this.commands.monitoring().masterSlots();
		if (slots.isEmpty()) {
			String holder = this.tokens.next();
			run(holder, this.commands.keyspace().healthKey(holder));
		}
		for (int slot : slots) {
			String holder = this.tokens.next();
			run(holder, this.commands.keyspace().healthKey(holder, slot));
		}
	}

	private void run(String holder, String key) {
		String waiter = this.tokens.next();
		AcquireReply first = this.commands.acquire(key, holder, LEASE_MILLIS, null, LEASE_MILLIS, 1, false);
		if (first instanceof AcquireReply.Held held && held.quarantined()) {
			throw new IllegalStateException("The locking check on " + key + " failed: Redis lost distlock's state "
					+ "(a restart without persistence, a flush) or is new, and grants no lock for another "
					+ held.holderLeaseMillis() + "ms, the rest of its restart quarantine ("
					+ RestartQuarantine.ENABLED_PROPERTY + ")");
		}
		check(first.granted(), key, "acquire did not grant a free key");
		check(!this.commands.acquire(key, waiter, LEASE_MILLIS, this.channelOf.apply(key), LEASE_MILLIS, 1, false)
			.granted(), key, "a second owner acquired a held key");
		check(this.commands.release(key, holder, 0) == ReleaseOutcome.HANDED_OVER, key,
				"release did not hand the key to the queued owner");
		check(this.commands.release(key, waiter, 0) == ReleaseOutcome.DELETED, key,
				"release of the handed-over key did not delete it");
	}

	private static void check(boolean expected, String key, String problem) {
		if (!expected) {
			throw new IllegalStateException("The locking check on " + key + " failed: " + problem
					+ ". Is something else writing to distlock's keys?");
		}
	}

}
