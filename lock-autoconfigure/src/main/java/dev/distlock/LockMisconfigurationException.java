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
 * Thrown when Redis answers a lock command with an error that means the application or
 * Redis is misconfigured, not that Redis is down: the user lacks a permission
 * ({@code NOPERM}), the credentials are wrong ({@code NOAUTH}, {@code WRONGPASS}), a key
 * distlock uses holds another type of value ({@code WRONGTYPE}), or Redis refuses a
 * command or a lock script, or a key is used as two kinds of lock (exclusive, read-write,
 * semaphore). Retrying does not help, and {@link DistributedLock#onUnavailable()} never
 * applies: the caller always gets this exception, and the method is not run.
 */
public class LockMisconfigurationException extends DistributedLockException {

	private final String key;

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param operation what was being done, such as "acquire" or "release"
	 * @param reply the error Redis replied with
	 * @param fix what to change, in the words of the error's kind
	 * @param cause the Redis client's exception
	 */
	public LockMisconfigurationException(String key, String operation, String reply, String fix, Throwable cause) {
		super("Could not " + operation + " lock " + LockKeyQuoting.quote(key) + ": Redis refused the command (" + reply
				+ "). " + fix, cause);
		this.key = key;
	}

	/**
	 * Creates the exception for a misuse found before anything is sent to Redis.
	 * @param key the Redis key of the lock
	 * @param message what is wrong and what to change
	 */
	public LockMisconfigurationException(String key, String message) {
		super(message, null);
		this.key = key;
	}

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
