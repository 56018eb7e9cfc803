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

import java.util.Locale;

/**
 * What kind of lock a key is and how a caller holds it: an {@value #EXCLUSIVE} lock, the
 * read or the write side of a {@value #READ_WRITE} lock, or a permit of a
 * {@value #SEMAPHORE}. A store keeps the three kinds apart: a key locked in one of these
 * ways cannot be locked in another, and a semaphore's holders are counted against one
 * size ({@link #sharesKeyWith(LockKind)}). Meters, observations and the actuator endpoint
 * name a kind by its {@link #label()} and {@link #modeLabel()}; a lock of several keys is
 * an {@value #EXCLUSIVE} lock of each key.
 *
 * @param mode how the lock is shared: {@link LockMode#EXCLUSIVE} for an exclusive lock
 * and a semaphore, {@link LockMode#READ} or {@link LockMode#WRITE} for the sides of a
 * read-write lock
 * @param permits how many holders the key admits: more than 1 for a semaphore, else 1
 */
public record LockKind(LockMode mode, int permits) {

	/** Label of a lock of one holder at a time. */
	public static final String EXCLUSIVE = "exclusive";

	/** Label of the read or the write side of a read-write lock. */
	public static final String READ_WRITE = "read-write";

	/** Label of a permit of a semaphore. */
	public static final String SEMAPHORE = "semaphore";

	/**
	 * Returns the kind of lock that options acquire.
	 * @param options the options of an acquisition
	 * @return the kind
	 */
	public static LockKind of(LockOptions options) {
		return new LockKind(options.mode(), options.permits());
	}

	/**
	 * Returns the kind of a hold.
	 * @param handle the hold
	 * @return the kind
	 */
	public static LockKind of(LockHandle handle) {
		return new LockKind(handle.mode(), handle.permits());
	}

	/**
	 * Returns whether this is a permit of a semaphore.
	 * @return whether the key admits more than one holder
	 */
	public boolean isSemaphore() {
		return this.permits > 1;
	}

	/**
	 * Returns whether this is a side of a read-write lock.
	 * @return whether the mode is read or write
	 */
	public boolean isReadWrite() {
		return this.permits == 1 && this.mode != LockMode.EXCLUSIVE;
	}

	/**
	 * Returns whether the key is a read-write lock or a semaphore, which a store keeps
	 * apart from exclusive locks.
	 * @return whether the kind is not {@value #EXCLUSIVE}
	 */
	public boolean isShared() {
		return this.mode != LockMode.EXCLUSIVE || this.permits > 1;
	}

	/**
	 * Returns whether two kinds can lock the same key: both exclusive, both sides of a
	 * read-write lock, or semaphores of the same size.
	 * @param other the other kind
	 * @return whether they share a key
	 */
	public boolean sharesKeyWith(LockKind other) {
		return (this.mode == LockMode.EXCLUSIVE) == (other.mode == LockMode.EXCLUSIVE) && this.permits == other.permits;
	}

	/**
	 * Returns the kind as meters, observations and the actuator endpoint name it.
	 * @return {@value #EXCLUSIVE}, {@value #READ_WRITE} or {@value #SEMAPHORE}
	 */
	public String label() {
		return isSemaphore() ? SEMAPHORE : isReadWrite() ? READ_WRITE : EXCLUSIVE;
	}

	/**
	 * Returns the mode as meters, observations and the actuator endpoint name it.
	 * @return {@code exclusive}, {@code read} or {@code write}: the mode in lower case
	 */
	public String modeLabel() {
		return this.mode.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Describes the structure a store keeps the key in, for messages.
	 * @return "an exclusive lock", "a read-write lock" or "a semaphore of N permits"
	 */
	public String structure() {
		if (isSemaphore()) {
			return "a semaphore of " + this.permits + " permits";
		}
		return isReadWrite() ? "a read-write lock" : "an exclusive lock";
	}

}
