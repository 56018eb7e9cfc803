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

import org.jspecify.annotations.Nullable;

/**
 * Thrown when the lock was no longer held by this acquisition: its lease had expired, and
 * the key was gone or already held by another owner. The work done under the lock may
 * have overlapped with another holder's; nothing of the other holder was deleted. Choose
 * a longer lease time for work that can take this long.
 * <p>
 * Thrown on release; by {@link LockContext#checkLease()} when locked code checks its
 * lease between steps; to the caller of a locked method that was interrupted because its
 * lease was lost ({@code distlock.interrupt-on-lease-lost}); and from the commit of a
 * transaction that kept a lock until it completes ({@link LockRelease#AFTER_TRANSACTION})
 * when the lease was lost before it committed.
 */
public class LockLeaseLostException extends DistributedLockException {

	private final String key;

	private final String name;

	/**
	 * Creates the exception for a lock whose name is not known.
	 * @param key the Redis key of the lock
	 * @param leaseTime the lease the lock was acquired with
	 * @param held how long the lock had been held when the loss was found
	 */
	public LockLeaseLostException(String key, Duration leaseTime, Duration held) {
		this(key, LockOptions.UNNAMED, leaseTime, held);
	}

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param leaseTime the lease the lock was acquired with
	 * @param held how long the lock had been held when the loss was found
	 */
	public LockLeaseLostException(String key, String name, Duration leaseTime, Duration held) {
		super("Lock " + LockKeyQuoting.quote(key) + " was lost before release: its lease of " + leaseTime
				+ " expired after the lock had " + "been held for " + held.toMillis()
				+ "ms, so another holder may have run at the same time. "
				+ "Use a lease time longer than the locked work takes.", null);
		this.key = key;
		this.name = name;
	}

	private LockLeaseLostException(String message, LockHandle handle, @Nullable Throwable cause) {
		super(message, cause);
		this.key = handle.key();
		this.name = handle.name();
	}

	/**
	 * Creates the exception for a lease found lost while its lock was still held, before
	 * its release.
	 * @param handle the hold whose lease was lost
	 * @param consequence what became of the work, such as "the transaction was rolled
	 * back"
	 * @param cause what the locked work threw, if anything
	 * @return the exception, naming the lock's key and name
	 */
	public static LockLeaseLostException whileHeld(LockHandle handle, String consequence, @Nullable Throwable cause) {
		return new LockLeaseLostException(
				"Lock " + LockKeyQuoting.quote(handle.key()) + " (name " + LockKeyQuoting.quote(handle.name())
						+ ") lost its lease of " + handle.leaseTime()
						+ " while held, so another holder may be running at the same time: " + consequence
						+ ". Use a lease time longer than the locked work takes, or renew it automatically.",
				handle, cause);
	}

	/**
	 * Creates the exception of an {@linkplain LockHandle#extend(Duration) extension} that
	 * found the lease lost: expired, taken over or force-released before Redis got the
	 * extension, or run out by the holder's own count before Redis confirmed it.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param leaseTime the lease the lock was acquired with
	 * @param held how long the lock had been held when the loss was found
	 * @return the exception
	 */
	public static LockLeaseLostException whenExtending(String key, String name, Duration leaseTime, Duration held) {
		return new LockLeaseLostException(key, name,
				"Could not extend lock " + LockKeyQuoting.quote(key) + ": its lease of " + leaseTime
						+ " was lost after the lock had been held for " + held.toMillis()
						+ "ms (it ran out, or the key was gone or held by another owner), so the lock is no longer "
						+ "held and another holder may be running. Extend it before its lease runs out, or use an "
						+ "auto-renewing lease.");
	}

	private LockLeaseLostException(String key, String name, String message) {
		super(message, null);
		this.key = key;
		this.name = name;
	}

	/**
	 * Returns the Redis key of the lost lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the logical name of the lost lock.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given
	 */
	public String getName() {
		return this.name;
	}

}
