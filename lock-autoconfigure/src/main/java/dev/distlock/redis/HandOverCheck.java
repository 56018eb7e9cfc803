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

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * Decides whether a hand-over that one acquisition was told of during a wait can still be
 * valid. The release that handed the lock over came after the last attempt that found the
 * lock held, so its claim window counts from that attempt's send. A hand-over at or below
 * the highest fencing counter an attempt found is void: it came before that attempt, and
 * has lapsed since. One whose claim window may have run out, by the local count, is not
 * trusted either; another attempt finds out in Redis whether the lock is still the
 * acquirer's.
 */
final class HandOverCheck {

	private final RedisLockCommands commands;

	private final long leaseMillis;

	private long heldFence;

	private long heldSentNanos;

	HandOverCheck(RedisLockCommands commands, long leaseMillis) {
		this.commands = commands;
		this.leaseMillis = leaseMillis;
	}

	/**
	 * Records that an attempt found the lock held.
	 * @param held the reply of the attempt
	 * @param sentNanos when the attempt was sent, by {@link System#nanoTime()}
	 */
	void foundHeld(AcquireReply.Held held, long sentNanos) {
		this.heldFence = Math.max(this.heldFence, held.fenceCounter());
		this.heldSentNanos = sentNanos;
	}

	/**
	 * Accepts a hand-over taken after a wait that followed the last attempt that found
	 * the lock held.
	 * @param handOver the hand-over, or null if none arrived
	 * @return the grant, valid for the claim window from that attempt's send, or null if
	 * there was none, it is void, or it may have run out
	 */
	@Nullable Grant accept(@Nullable HandOverMessage handOver) {
		if (handOver == null || handOver.fencingToken() <= this.heldFence) {
			return null;
		}
		Duration claim = Duration.ofMillis(this.commands.claimMillis(this.leaseMillis));
		Grant grant = new Grant(handOver.fencingToken(), handOver.block(), this.heldSentNanos, claim);
		return grant.hasRunOut() ? null : grant;
	}

}
