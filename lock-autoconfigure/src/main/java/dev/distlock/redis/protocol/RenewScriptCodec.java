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
 * The arguments and the reply of {@code renew.lua}, built and parsed in one place: the
 * lease in ms followed by the owner token of each key, in the order of the keys; per key,
 * 1 if its lease was renewed and 0 if the lock was gone or someone else's.
 */
final class RenewScriptCodec {

	private RenewScriptCodec() {
	}

	/**
	 * Builds the script's arguments.
	 * @param tokens the owner token of each key, in the order of the keys
	 * @param leaseMillis the lease to extend the locks to
	 * @param raiseOnly whether an exclusive lock's expiry is only raised to the lease,
	 * never lowered
	 * @return the lease, then the tokens
	 */
	static String[] arguments(List<String> tokens, long leaseMillis, boolean raiseOnly) {
		String[] args = new String[tokens.size() + 1];
		args[0] = (raiseOnly ? ">" : "") + leaseMillis;
		for (int i = 0; i < tokens.size(); i++) {
			args[i + 1] = tokens.get(i);
		}
		return args;
	}

	/**
	 * Parses the script's reply.
	 * @param results the reply, or {@code null} if there was none
	 * @param keys how many keys the script was given
	 * @return per key, whether its lease was renewed: not for a key the reply lacks
	 */
	static boolean[] renewed(@Nullable List<Long> results, int keys) {
		boolean[] renewed = new boolean[keys];
		for (int i = 0; results != null && i < renewed.length && i < results.size(); i++) {
			renewed[i] = Long.valueOf(1).equals(results.get(i));
		}
		return renewed;
	}

}
