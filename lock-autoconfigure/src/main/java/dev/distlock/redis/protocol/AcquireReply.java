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

package dev.distlock.redis.protocol;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one acquire attempt got back from Redis, parsed from {@code acquire.lua}'s reply
 * in one place: either {@link Granted the lock}, or {@link Held the holder's remaining
 * lease and the fencing counter} as the attempt found them.
 */
public sealed interface AcquireReply permits AcquireReply.Granted, AcquireReply.Held {

	/**
	 * Parses the script's reply: {1, first fencing token}, or {1, first fencing token,
	 * replicas that acknowledged} if any had to, or {0, holder's lease, counter}, or {0,
	 * rest of the restart quarantine, counter, 1}.
	 * @param reply the reply, or {@code null} if there was none
	 * @return the parsed reply
	 * @throws IllegalStateException if the reply is neither
	 */
	static AcquireReply of(@Nullable List<Long> reply) {
		if (reply != null && reply.size() == 2 && reply.get(0) == 1) {
			return new Granted(reply.get(1));
		}
		if (reply != null && reply.size() == 3 && reply.get(0) == 1) {
			return new Granted(reply.get(1), reply.get(2));
		}
		if (reply != null && reply.size() == 3 && reply.get(0) == 0) {
			return new Held(reply.get(1), reply.get(2));
		}
		if (reply != null && reply.size() == 4 && reply.get(0) == 0 && reply.get(3) == 1) {
			return new Held(reply.get(1), reply.get(2), true);
		}
		throw new IllegalStateException("Unexpected reply of the acquire script: " + reply);
	}

	/**
	 * Returns whether the attempt acquired the lock.
	 * @return whether this is a {@link Granted}
	 */
	default boolean granted() {
		return this instanceof Granted;
	}

	/**
	 * The attempt acquired the lock.
	 *
	 * @param fencingToken the first fencing token of the block the attempt reserved
	 * @param acknowledgedReplicas how many replicas acknowledged the grant, or
	 * {@link #NOT_ASKED} if none had to
	 */
	public record Granted(long fencingToken, long acknowledgedReplicas) implements AcquireReply {

		/** The acknowledgements of a grant that no replica had to acknowledge. */
		public static final long NOT_ASKED = -1;

		/**
		 * The fencing token of a grant made without the acquire script, which issues it
		 * only when its holder asks ({@link RedisLockCommands#issueFencingToken}); real
		 * tokens are at least 1.
		 */
		public static final long NOT_ISSUED = 0;

		/**
		 * Creates a grant that no replica had to acknowledge.
		 * @param fencingToken the first fencing token of the block the attempt reserved
		 */
		public Granted(long fencingToken) {
			this(fencingToken, NOT_ASKED);
		}

	}

	/**
	 * Someone else holds the lock, or the server grants no lock during a restart
	 * quarantine ({@link RestartQuarantine}), which a caller waits out as a holder's
	 * lease. A hand-over whose fencing token is at or below the counter was granted
	 * before the attempt ran, and was therefore void by then (the attempt would otherwise
	 * have found the lock set to its own token).
	 *
	 * @param holderLeaseMillis the holder's remaining lease in ms, or the rest of the
	 * quarantine
	 * @param fenceCounter the fencing counter when the attempt ran
	 * @param quarantined whether the server is in a restart quarantine
	 */
	public record Held(long holderLeaseMillis, long fenceCounter, boolean quarantined) implements AcquireReply {

		/**
		 * Creates the reply of a lock that someone else holds.
		 * @param holderLeaseMillis the holder's remaining lease in ms
		 * @param fenceCounter the fencing counter when the attempt ran
		 */
		public Held(long holderLeaseMillis, long fenceCounter) {
			this(holderLeaseMillis, fenceCounter, false);
		}

	}

}
