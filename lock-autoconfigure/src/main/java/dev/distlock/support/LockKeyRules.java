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

package dev.distlock.support;

import dev.distlock.InvalidLockKeyException;

/**
 * The rules every lock key a caller gives must follow before anything is sent to a store:
 * it is not blank, not longer than the client allows, and not in the namespace distlock
 * keeps for its own keys and channels ({@link #RESERVED}), where a lock would collide
 * with them. A key that breaks one is refused with an {@link InvalidLockKeyException}
 * that says what to do instead. Every store checks its keys here, so that a key the
 * in-memory store accepts is one Redis accepts too.
 */
public final class LockKeyRules {

	/** The namespace of distlock's own keys and channels, after the prefix. */
	public static final String RESERVED = "distlock:";

	private final String prefix;

	private final int maxKeyLength;

	/**
	 * Creates the rules of one client.
	 * @param prefix prepended to every lock key, may be empty
	 * @param maxKeyLength the longest lock key accepted, in characters, without the
	 * prefix
	 */
	public LockKeyRules(String prefix, int maxKeyLength) {
		this.prefix = prefix;
		this.maxKeyLength = maxKeyLength;
	}

	/**
	 * Checks a lock key and returns it after the prefix.
	 * @param key the key as given by the caller
	 * @return the key after the prefix
	 * @throws InvalidLockKeyException if the key is blank, too long, or in the reserved
	 * namespace
	 */
	public String lockKey(String key) {
		check(key);
		return this.prefix + key;
	}

	private void check(String key) {
		if (key == null || key.isBlank()) {
			throw new InvalidLockKeyException(String.valueOf(key), "is blank", "Give every lock a non-blank key.");
		}
		if (key.length() > this.maxKeyLength) {
			throw new InvalidLockKeyException(key,
					"has " + key.length() + " characters, more than the " + this.maxKeyLength + " allowed",
					"Use a shorter key (a hash of long input, for example), or raise " + "distlock.max-key-length.");
		}
		if (key.startsWith(RESERVED)) {
			throw new InvalidLockKeyException(key,
					"is in the namespace \"" + RESERVED + "\" that distlock keeps " + "for its own keys",
					"Choose a key that does not start with \"" + RESERVED + "\".");
		}
	}

}
