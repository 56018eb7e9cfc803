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

package dev.distlock;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The failure of a question about a key that a handle does not hold, shared by
 * {@link LockHandle} and {@link MultiLockHandle} so that neither calls the other.
 */
final class HeldKeys {

	private HeldKeys() {
	}

	/**
	 * Returns the failure of asking a handle about a key it does not hold.
	 * @param key the key asked about
	 * @param held the keys the handle holds
	 * @return the exception, naming the key and the keys held
	 */
	static IllegalArgumentException notHeld(String key, List<String> held) {
		return new IllegalArgumentException("Lock " + LockKeyQuoting.quote(key) + " is not held by this handle, "
				+ "which holds " + held.stream().map(LockKeyQuoting::quote).collect(Collectors.joining(", "))
				+ ". Give the key as the handle's keys() report it, with distlock.key-prefix.");
	}

}
