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
 * What an attempt to acquire several keys at once got back from Redis, parsed from
 * {@code multi-acquire.lua}'s reply: either {@link Granted every key}, each with its own
 * fencing token, or {@link Held the first key found held} and its holder's remaining
 * lease, with nothing written.
 */
public sealed interface MultiAcquireReply permits MultiAcquireReply.Granted, MultiAcquireReply.Held {

	/**
	 * Parses the script's reply: {1, fencing token of the first key}, or {0, index of the
	 * held key from 1, holder's lease}.
	 * @param reply the reply, or {@code null} if there was none
	 * @param keys how many keys the attempt locked
	 * @return the parsed reply
	 * @throws IllegalStateException if the reply is neither
	 */
	static MultiAcquireReply of(@Nullable List<Long> reply, int keys) {
		if (reply != null && reply.size() == 2 && reply.get(0) == 1) {
			return new Granted(reply.get(1));
		}
		if (reply != null && reply.size() == 3 && reply.get(0) == 0 && reply.get(1) >= 1 && reply.get(1) <= keys) {
			return new Held(reply.get(1).intValue() - 1, reply.get(2));
		}
		throw new IllegalStateException("Unexpected reply of the multi-acquire script: " + reply);
	}

	/**
	 * Every key was acquired.
	 *
	 * @param firstFencingToken the fencing token of the first key; the key at index
	 * {@code i} has {@code firstFencingToken + i}
	 */
	record Granted(long firstFencingToken) implements MultiAcquireReply {

		/**
		 * Returns the fencing token of one key.
		 * @param index the key's index in lock order, from 0
		 * @return its fencing token
		 */
		public long fencingToken(int index) {
			return this.firstFencingToken + index;
		}

	}

	/**
	 * A key was held by another owner; nothing was written.
	 *
	 * @param index the index of the first key found held, in lock order, from 0
	 * @param holderLeaseMillis its holder's remaining lease in ms
	 */
	record Held(int index, long holderLeaseMillis) implements MultiAcquireReply {

	}

}
