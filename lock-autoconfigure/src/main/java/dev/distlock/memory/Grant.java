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

package dev.distlock.memory;

import java.time.Duration;

import dev.distlock.Deadlines;
import dev.distlock.LockMode;

/**
 * A grant of a key to one thread, as the {@link LockTable} keeps it: the fencing token,
 * the holder thread, when it was claimed and its lease. A grant made to a waiting thread
 * holds the key from the moment it is made, and its lease counts from when the thread
 * wakes and claims it, so that a short lease cannot run out before its holder could use
 * it (the claim window of the Redis client's hand-over, without a timeout: a waiting
 * thread always wakes). A fixed lease runs out at the claim plus the lease, or at an
 * extension plus its lease; an auto-renewing one lasts as long as its holder thread
 * lives, which is what renewing it would achieve, computed when asked instead of by a
 * renewal thread. A grant that ran out, or that the table took back, is lost for good.
 */
final class Grant {

	private final String key;

	private final long fencingToken;

	private final Thread owner;

	private final Duration leaseTime;

	private final boolean autoRenewing;

	private final LockMode mode;

	private volatile long grantedNanos;

	private volatile long validUntilNanos;

	private volatile boolean claimed;

	private volatile boolean lost;

	/** Creates a grant to a request, to be claimed by its thread. */
	Grant(LockRequest request, long fencingToken) {
		this.key = request.key();
		this.fencingToken = fencingToken;
		this.owner = request.thread();
		this.leaseTime = request.leaseTime();
		this.autoRenewing = request.autoRenewing();
		this.mode = request.mode();
	}

	String key() {
		return this.key;
	}

	long fencingToken() {
		return this.fencingToken;
	}

	Thread owner() {
		return this.owner;
	}

	/** The holder thread takes the grant up: its lease counts from now. */
	void claim(long nowNanos) {
		this.grantedNanos = nowNanos;
		this.validUntilNanos = Deadlines.after(nowNanos, this.leaseTime);
		this.claimed = true;
	}

	/** When the grant was claimed, by {@link System#nanoTime()}. */
	long grantedNanos() {
		return this.grantedNanos;
	}

	boolean isClaimed() {
		return this.claimed;
	}

	Duration leaseTime() {
		return this.leaseTime;
	}

	boolean isAutoRenewing() {
		return this.autoRenewing;
	}

	/** The side of a read-write lock it holds, or exclusive. */
	LockMode mode() {
		return this.mode;
	}

	/**
	 * Returns when a fixed lease of a claimed grant runs out, by
	 * {@link System#nanoTime()}: the claim plus the lease, or the last extension plus its
	 * lease.
	 */
	long validUntilNanos() {
		return this.validUntilNanos;
	}

	/**
	 * Sets the fixed lease of a claimed grant to run out the given time after now,
	 * earlier or later than it did (its holder {@linkplain dev.distlock.LockHandle#extend
	 * extended} it); under the table's mutex.
	 */
	void extend(long nowNanos, Duration leaseTime) {
		this.validUntilNanos = Deadlines.after(nowNanos, leaseTime);
	}

	/**
	 * Whether the claimed grant no longer keeps others out: its fixed lease ran out, or
	 * the thread whose auto-renewing lease it is has ended.
	 */
	boolean hasRunOut(long nowNanos) {
		if (!this.claimed) {
			return false;
		}
		return this.autoRenewing ? !this.owner.isAlive() : nowNanos - validUntilNanos() >= 0;
	}

	/** Whether the grant was taken back, or its fixed lease ran out. */
	boolean isLost(long nowNanos) {
		return this.lost || (this.claimed && !this.autoRenewing && nowNanos - validUntilNanos() >= 0);
	}

	/** The table took the key back from this grant. */
	void markLost() {
		this.lost = true;
	}

}
