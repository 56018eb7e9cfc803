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

import java.time.Duration;

/**
 * Thrown when a lock is held by someone else for longer than the caller was willing to
 * wait, or when its grant came too late to trust and the wait left no time to try again
 * ({@link #grantedTooLate}).
 */
public class LockNotAcquiredException extends DistributedLockException {

	private final String key;

	private final String name;

	private final Duration waited;

	/**
	 * Creates the exception for a lock whose name is not known.
	 * @param key the Redis key of the lock
	 * @param waitTime how long the caller was willing to wait
	 * @param waited how long the caller actually waited
	 */
	public LockNotAcquiredException(String key, Duration waitTime, Duration waited) {
		this(key, LockOptions.UNNAMED, waitTime, waited);
	}

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param waitTime how long the caller was willing to wait
	 * @param waited how long the caller actually waited
	 */
	public LockNotAcquiredException(String key, String name, Duration waitTime, Duration waited) {
		this(key, name, waited, "Lock " + LockKeyQuoting.quote(key)
				+ " was not acquired: another holder kept it beyond the wait time of " + waitTime + " (waited "
				+ waited.toMillis() + "ms). Retry later, or raise waitTime if callers should queue for longer.");
	}

	private LockNotAcquiredException(String key, String name, Duration waited, String message) {
		super(message, null);
		this.key = key;
		this.name = name;
		this.waited = waited;
	}

	/**
	 * Creates the exception for a lock that Redis granted, but whose grant came too late
	 * to trust, with no time left to try again: a hold is valid for its lease counted
	 * from when its request was sent, less a margin for clock drift, and the reply came
	 * after that (a lease shorter than the time Redis takes to answer, a pause of the
	 * process, a slow network). The grant was let go in Redis.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param waitTime how long the caller was willing to wait
	 * @param waited how long the caller actually waited
	 * @param leaseTime the lease the grant was for
	 * @param replyAfter how long after its request the late grant came
	 * @return the exception
	 */
	public static LockNotAcquiredException grantedTooLate(String key, String name, Duration waitTime, Duration waited,
			Duration leaseTime, Duration replyAfter) {
		return new LockNotAcquiredException(key, name, waited, "Lock " + LockKeyQuoting.quote(key)
				+ " was not acquired: Redis granted it, but the grant came " + replyAfter.toMillis()
				+ "ms after its request, when its lease of " + leaseTime.toMillis()
				+ "ms, counted from the request less a margin for clock drift, may have run out, so it was let go; "
				+ "the wait time of " + waitTime + " left no time to try again (waited " + waited.toMillis()
				+ "ms). Use a lease well above the time Redis takes to answer, or a wait time that allows another "
				+ "attempt.");
	}

	/**
	 * Returns the Redis key of the lock that was not acquired.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the logical name of the lock that was not acquired.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns how long the caller waited before giving up.
	 * @return the time waited
	 */
	public Duration getWaited() {
		return this.waited;
	}

}
