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

import org.jspecify.annotations.Nullable;

/**
 * Thrown when Redis cannot be reached, or fails, while acquiring or releasing a lock. A
 * locked method is never run without its lock: this exception reaches the caller instead.
 */
public class LockUnavailableException extends DistributedLockException {

	/** The {@link #getOperation() operation} of a release, after the locked work. */
	public static final String RELEASE = "release";

	/**
	 * The {@link #getOperation() operation} of an
	 * {@linkplain LockHandle#extend(java.time.Duration) extension} of a held lock's
	 * lease.
	 */
	public static final String EXTEND = "extend";

	/**
	 * The {@link #getOperation() operation} of asking for the fencing token of a held
	 * lock that was acquired without one ({@link LockHandle#fencingToken()}).
	 */
	public static final String FENCING_TOKEN = "get the fencing token of";

	private final String key;

	private final String name;

	private final String operation;

	/**
	 * Creates the exception for a lock whose name is not known.
	 * @param key the Redis key of the lock
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param cause the Redis client's exception
	 */
	public LockUnavailableException(String key, String operation, Throwable cause) {
		this(key, LockOptions.UNNAMED, operation, cause);
	}

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param cause the Redis client's exception
	 */
	public LockUnavailableException(String key, String name, String operation, Throwable cause) {
		this(key, name, operation, message(key, operation, "Redis", cause), cause);
	}

	/**
	 * Creates the exception for a Redis whose address is known, which the message names.
	 * @param address where the client connects, such as {@code redis.internal:6379}, the
	 * nodes of a cluster, or the master name and sentinels of Sentinel
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param cause the Redis client's exception
	 * @return the exception
	 */
	public static LockUnavailableException at(String address, String key, String name, String operation,
			Throwable cause) {
		return new LockUnavailableException(key, name, operation, message(key, operation, "Redis at " + address, cause),
				cause);
	}

	private static String message(String key, String operation, String redis, Throwable cause) {
		return RELEASE.equals(operation) ? releaseNotConfirmed(key, redis, cause)
				: "Could not " + operation + " lock " + LockKeyQuoting.quote(key) + ": " + redis + " is unavailable ("
						+ cause.getMessage() + "). Check spring.data.redis.* and that the Redis server is up.";
	}

	/**
	 * Creates the exception with a message of its own, for a subclass that knows more
	 * precisely what failed.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param message what failed and what to do about it
	 * @param cause the underlying failure, if any
	 */
	protected LockUnavailableException(String key, String name, String operation, String message,
			@Nullable Throwable cause) {
		super(message, cause);
		this.key = key;
		this.name = name;
		this.operation = operation;
	}

	/**
	 * The message of a release Redis did not confirm. Its request may have been lost, or
	 * only its reply: the client cannot tell which, so it does not claim either.
	 */
	private static String releaseNotConfirmed(String key, String redis, Throwable cause) {
		return "Release of lock " + LockKeyQuoting.quote(key) + " not confirmed: " + redis + " did not answer ("
				+ cause.getMessage() + "). The locked work ran, and the release may have taken effect; it is retried "
				+ "in the background until Redis answers or the lease ends, keeping the lock for what is left of its "
				+ "minimum hold. Check spring.data.redis.* and that the Redis server is up.";
	}

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the logical name of the lock.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given or known
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns what was being done when Redis failed: {@code "acquire"} (the locked work
	 * did not run), {@value #RELEASE} (it ran, and its release, which may have taken
	 * effect, is retried in the background until Redis answers or the lease ends),
	 * {@value #EXTEND} (the lock is still held, and its lease may or may not have been
	 * extended in Redis: the holder's deadline stays where it was),
	 * {@value #FENCING_TOKEN} (the lock is still held, without a token yet), or an
	 * operation of the actuator endpoint such as {@code "inspect"}.
	 * @return the operation
	 */
	public String getOperation() {
		return this.operation;
	}

}
