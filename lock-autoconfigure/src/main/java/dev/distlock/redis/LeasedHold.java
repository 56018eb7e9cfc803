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

package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.redis.cohort.PassableHold;
import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.lease.RenewedHold;
import dev.distlock.redis.protocol.RedisReachability;

/**
 * A hold of a key in Redis, as the renewal of leases ({@link RenewedHold}) and passing
 * within the client ({@link PassableHold}) see it: the key, the owner token it is held
 * with, its fencing token, the holder thread, when its release completed in Redis, and
 * its validity by the local count ({@link Lease}). {@link RedisLockHandle} adds what its
 * caller holds: the options, the re-entrant holds of its thread, and their end.
 */
abstract class LeasedHold implements RenewedHold, PassableHold {

	private final String key;

	private final String token;

	private final long fencingToken;

	private final Duration leaseTime;

	private final Lease lease;

	private final Thread owner;

	private final boolean boundToThread;

	private volatile long releasedNanos;

	/**
	 * Creates a hold of the current thread if bound to it, else of reactive work (the
	 * thread is then only named), valid by the local count for the given lease.
	 */
	LeasedHold(String key, String token, long fencingToken, Duration leaseTime, Lease lease, boolean boundToThread) {
		this.key = key;
		this.token = token;
		this.fencingToken = fencingToken;
		this.leaseTime = leaseTime;
		this.lease = lease;
		this.owner = Thread.currentThread();
		this.boundToThread = boundToThread;
	}

	/** Whether the hold belongs to the thread that took it (not to reactive work). */
	boolean isBoundToThread() {
		return this.boundToThread;
	}

	@Override
	public boolean isHolderAlive() {
		return !this.boundToThread || this.owner.isAlive();
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public String token() {
		return this.token;
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public Duration leaseTime() {
		return this.leaseTime;
	}

	@Override
	public Thread owner() {
		return this.owner;
	}

	@Override
	public boolean isLeaseLost() {
		return this.lease.isLost();
	}

	@Override
	public long validUntilNanos() {
		return this.lease.validUntilNanos();
	}

	/** Whether the local validity has run out: Redis may have expired the lock. */
	boolean isPastDeadline() {
		return this.lease.isPastDeadline();
	}

	/** Returns how long the lease is still valid by the local count. */
	Duration leaseRemaining() {
		return this.lease.remaining();
	}

	@Override
	public long confirmedSendNanos() {
		return this.lease.confirmedSendNanos();
	}

	@Override
	public Lease leasePassedOn() {
		return this.lease.passedOn();
	}

	/**
	 * Whether the lease lets the lock pass within the client: not lost, more than a third
	 * left, and confirmed after the last trouble with Redis, which is not in doubt now.
	 */
	boolean leaseAllowsLocalPass(RedisReachability reachability) {
		return !isLeaseLost() && this.lease.validUntilNanos() - System.nanoTime() > this.leaseTime.toNanos() / 3
				&& reachability.allowsLocalPass(this.lease.confirmedSendNanos());
	}

	@Override
	public boolean isHoldingHealthily() {
		return isHolderAlive() && !isLeaseLost();
	}

	@Override
	public void confirmed(long sentNanos, Duration validFor) {
		this.lease.confirmed(sentNanos, validFor);
	}

	/**
	 * Moves the local deadline to the lease Redis set by an extension sent then, earlier
	 * or later ({@link Lease#extended}).
	 * @return false if the lease was lost or ran out by the local count first
	 */
	/** How long the hold has been held, from its grant. */
	abstract Duration heldFor();

	boolean extended(long sentNanos, Duration validFor) {
		return this.lease.extended(sentNanos, validFor);
	}

	/** Runs the action once the lease is marked lost (for reactive work). */
	void onLeaseLost(Runnable action) {
		this.lease.onLost(action);
	}

	/** Forgets an action given to {@link #onLeaseLost}, if it has not run. */
	void removeOnLeaseLost(Runnable action) {
		this.lease.removeOnLost(action);
	}

	/** Marks the lease lost; returns true only the first time. */
	boolean markLeaseLost() {
		return this.lease.markLost();
	}

	@Override
	public long releasedNanos() {
		return this.releasedNanos;
	}

	void markReleasedInRedis(long nanos) {
		this.releasedNanos = nanos;
	}

}
