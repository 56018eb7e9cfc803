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

import dev.distlock.InvalidLockKeyException;

/**
 * The rules every lock key a caller gives must follow before anything is sent to Redis:
 * it is not blank, not longer than the client allows, and not in the namespace distlock
 * keeps for its own keys and channels, where a lock would collide with them. A key that
 * breaks one is refused with an {@link InvalidLockKeyException} that says what to do
 * instead.
 */
final class LockKeyRules {

	private final String reserved;

	private final int maxKeyLength;

	/**
	 * Creates the rules of one client.
	 * @param reserved the namespace of distlock's own keys and channels, after the prefix
	 * @param maxKeyLength the longest lock key accepted, in characters, without the
	 * prefix
	 */
	LockKeyRules(String reserved, int maxKeyLength) {
		this.reserved = reserved;
		this.maxKeyLength = maxKeyLength;
	}

	/**
	 * Checks a lock key.
	 * @param key the key as given by the caller
	 * @throws InvalidLockKeyException if the key is blank, too long, or in the reserved
	 * namespace
	 */
	void check(String key) {
		if (key == null || key.isBlank()) {
			throw new InvalidLockKeyException(String.valueOf(key), "is blank", "Give every lock a non-blank key.");
		}
		if (key.length() > this.maxKeyLength) {
			throw new InvalidLockKeyException(key,
					"has " + key.length() + " characters, more than the " + this.maxKeyLength + " allowed",
					"Use a shorter key (a hash of long input, for example), or raise " + "distlock.max-key-length.");
		}
		if (key.startsWith(this.reserved)) {
			throw new InvalidLockKeyException(key,
					"is in the namespace \"" + this.reserved + "\" that distlock keeps " + "for its own keys",
					"Choose a key that does not start with \"" + this.reserved + "\".");
		}
	}

}
