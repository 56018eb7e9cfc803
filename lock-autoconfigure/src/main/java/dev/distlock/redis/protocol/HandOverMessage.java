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

import org.jspecify.annotations.Nullable;

/**
 * A release's message to a waiter that it was handed the lock over, as
 * {@code release.lua} publishes it ({@code <owner token>:<fencing token>:<block>}): the
 * waiter's owner token, the first fencing token of the block the release reserved for it,
 * and the size of that block. The release sets the lock to the waiter's owner token for a
 * short claim window only; the waiter confirms the hand-over by extending it to its
 * lease.
 *
 * @param ownerToken the owner token of the waiter the lock was handed over to
 * @param fencingToken the first fencing token of the block
 * @param block how many fencing tokens the release reserved, 1 or more
 */
public record HandOverMessage(String ownerToken, long fencingToken, int block) {

	/**
	 * Reads the body of a hand-over message.
	 * @param body the message body
	 * @return the hand-over, or {@code null} if the body is not a hand-over message
	 */
	public static @Nullable HandOverMessage parse(String body) {
		int blockSeparator = body.lastIndexOf(':');
		int fenceSeparator = (blockSeparator > 0) ? body.lastIndexOf(':', blockSeparator - 1) : -1;
		if (fenceSeparator <= 0) {
			return null;
		}
		try {
			long fence = Long.parseLong(body, fenceSeparator + 1, blockSeparator, 10);
			int block = Integer.parseInt(body, blockSeparator + 1, body.length(), 10);
			return new HandOverMessage(body.substring(0, fenceSeparator), fence, block);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
