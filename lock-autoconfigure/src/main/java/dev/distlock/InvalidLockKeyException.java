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

/**
 * Thrown when a lock key is refused before anything is sent to Redis: it is blank, longer
 * than {@code distlock.max-key-length}, or in the namespace {@code distlock:} that
 * distlock keeps for its own keys (its fencing counters, queues and channels), where a
 * lock would collide with them. Nothing is locked, and a locked method is not invoked.
 */
public class InvalidLockKeyException extends DistributedLockException {

	/**
	 * Creates the exception.
	 * @param key the refused key, as given by the caller
	 * @param problem what is wrong with it, such as "is blank"
	 * @param action what to do instead
	 */
	public InvalidLockKeyException(String key, String problem, String action) {
		super("Lock key " + LockKeyQuoting.quote(key) + " " + problem + ". " + action, null);
	}

}
