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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@code inspect.lua} found of a key, parsed from its reply in one place: its
 * remaining time to live, and which of the tokens the client gave holds it (compared in
 * Redis, so that no other owner's token is read back); for a read-write lock or a
 * semaphore, every holder whose lease has not ended, the permits and the number of
 * waiters.
 *
 * @param ttlMillis the remaining time to live in ms, -2 if there is no such key, -1 if it
 * never expires
 * @param holderIndex the 0-based index of the given token that holds the key, or -1 if
 * none does; for a shared key, the first of the holders that is one of the tokens
 * @param shared the state of a read-write lock or a semaphore, or {@code null} if the key
 * is an exclusive lock or does not exist
 */
public record KeyInspection(long ttlMillis, int holderIndex, @Nullable Shared shared) {

	/** Marks the reply of a shared key in place of the index of a token. */
	private static final long SHARED = -1;

	/** How many numbers the reply has per holder of a shared key. */
	private static final int PER_HOLDER = 3;

	/** The kinds of holder, by their code in the reply. */
	private static final List<String> KINDS = List.of(Holder.UNKNOWN, Holder.READER, Holder.WRITER, Holder.PERMIT);

	/**
	 * Parses the script's reply: {ttl, 1-based index of the holding token or 0} for an
	 * exclusive lock, {ttl, -1, permits, waiters, then kind, remaining lease and 1-based
	 * token index or 0 per holder} for a shared one.
	 * @param reply the reply, or {@code null} if there was none
	 * @return the inspection
	 * @throws IllegalStateException if the reply has not that form
	 */
	public static KeyInspection of(@Nullable List<Long> reply) {
		if (reply == null || reply.size() < 2) {
			throw unexpected(reply);
		}
		if (reply.get(1) != SHARED) {
			if (reply.size() != 2) {
				throw unexpected(reply);
			}
			return new KeyInspection(reply.get(0), reply.get(1).intValue() - 1, null);
		}
		if (reply.size() < 4 || (reply.size() - 4) % PER_HOLDER != 0) {
			throw unexpected(reply);
		}
		List<Holder> holders = new ArrayList<>();
		int firstMine = -1;
		for (int i = 4; i < reply.size(); i += PER_HOLDER) {
			int kind = reply.get(i).intValue();
			int tokenIndex = reply.get(i + 2).intValue() - 1;
			holders.add(new Holder((kind > 0 && kind < KINDS.size()) ? KINDS.get(kind) : Holder.UNKNOWN,
					Duration.ofMillis(Math.max(0, reply.get(i + 1))), tokenIndex));
			if (firstMine < 0 && tokenIndex >= 0) {
				firstMine = tokenIndex;
			}
		}
		return new KeyInspection(reply.get(0), firstMine,
				new Shared(reply.get(2).intValue(), reply.get(3).intValue(), List.copyOf(holders)));
	}

	private static IllegalStateException unexpected(@Nullable List<Long> reply) {
		return new IllegalStateException("Unexpected reply of the inspect script: " + reply);
	}

	/**
	 * Returns whether the key exists.
	 * @return whether it exists
	 */
	public boolean exists() {
		return this.ttlMillis != -2;
	}

	/**
	 * Returns the remaining time to live.
	 * @return the time to live, or {@code null} if the key does not exist or never
	 * expires
	 */
	public @Nullable Duration remaining() {
		return (this.ttlMillis >= 0) ? Duration.ofMillis(this.ttlMillis) : null;
	}

	/**
	 * The state of a read-write lock or a semaphore.
	 *
	 * @param permits the permits of a semaphore, as its holders' tokens say; 0 for a
	 * read-write lock
	 * @param waiters how many callers wait in the key's queue with a valid place
	 * @param holders the holders whose lease has not ended, earliest expiry first
	 */
	public record Shared(int permits, int waiters, List<Holder> holders) {

	}

	/**
	 * One holder of a read-write lock or a semaphore, without its token.
	 *
	 * @param kind {@value #READER}, {@value #WRITER}, {@value #PERMIT}, or
	 * {@value #UNKNOWN} for a token of another form
	 * @param leaseRemaining how long its lease lasts by the Redis server's clock
	 * @param tokenIndex the 0-based index of the given token it holds with, or -1 if it
	 * is not one of them
	 */
	public record Holder(String kind, Duration leaseRemaining, int tokenIndex) {

		/** Kind of a holder of the read lock. */
		public static final String READER = "reader";

		/** Kind of the holder of the write lock. */
		public static final String WRITER = "writer";

		/** Kind of a holder of one permit of a semaphore. */
		public static final String PERMIT = "permit";

		/** Kind of a holder whose token has a form this version does not know. */
		public static final String UNKNOWN = "unknown";

	}

}
