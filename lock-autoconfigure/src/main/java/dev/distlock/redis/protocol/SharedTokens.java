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

import dev.distlock.LockMode;
import dev.distlock.LockOptions;

/**
 * The owner tokens of shared holds, which carry their kind: {@code r.<hex>} a reader of a
 * read-write lock, {@code w.<hex>} its writer, {@code s<N>.<hex>} one of a semaphore's N
 * permits. The tokens of exclusive locks stay plain hexadecimal, without a '.', so that a
 * token alone tells which scripts serve it (the shared scripts read the kind the same
 * way).
 */
public final class SharedTokens {

	private static final char SEPARATOR = '.';

	private SharedTokens() {
	}

	/**
	 * Returns the owner token of an acquisition with the given options.
	 * @param options the options of the acquisition
	 * @param random a new random token ({@link OwnerTokens#next()})
	 * @return the random token, with the prefix of its kind if the lock is shared
	 */
	public static String of(LockOptions options, String random) {
		if (!options.isShared()) {
			return random;
		}
		return prefix(options) + random;
	}

	private static String prefix(LockOptions options) {
		if (options.permits() > 1) {
			return "s" + options.permits() + SEPARATOR;
		}
		return (options.mode() == LockMode.READ) ? "r." : "w.";
	}

	/**
	 * Returns whether a token is a shared hold's, served by the shared scripts.
	 * @param token an owner token
	 * @return whether it carries a kind
	 */
	public static boolean isShared(String token) {
		return token.indexOf(SEPARATOR) >= 0;
	}

}
