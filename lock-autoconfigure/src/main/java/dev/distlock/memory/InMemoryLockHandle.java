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
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.support.HoldCount;
import dev.distlock.support.LeaseExtensionRules;

/**
 * A lock acquired from an {@link InMemoryLockClient}: its grant in the client's table,
 * the options it was acquired with, and the holds of its thread (one, plus one per
 * re-entrant acquisition); when the last of them ends, the lock is released.
 */
final class InMemoryLockHandle implements LockHandle {

	/** What ends a hold when its last (outer) hold was released. */
	interface Ending {

		/**
		 * Ends a hold whose last hold was released.
		 * @param handle the hold
		 */
		void lastHoldEnded(InMemoryLockHandle handle);

	}

	private final Grant grant;

	private final LockOptions options;

	private final Ending ending;

	private final LockTable table;

	private final HoldCount holds = new HoldCount();

	private final AtomicBoolean released = new AtomicBoolean();

	private final AtomicBoolean lossReported = new AtomicBoolean();

	private volatile Observation observation = Observation.NOOP;

	InMemoryLockHandle(Grant grant, LockOptions options, Ending ending, LockTable table) {
		this.grant = grant;
		this.options = options;
		this.ending = ending;
		this.table = table;
	}

	@Override
	public String key() {
		return this.grant.key();
	}

	@Override
	public String name() {
		return this.options.name();
	}

	@Override
	public LockMode mode() {
		return this.options.mode();
	}

	@Override
	public int permits() {
		return this.options.permits();
	}

	@Override
	public Duration leaseTime() {
		return this.grant.leaseTime();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.grant.isAutoRenewing();
	}

	@Override
	public long fencingToken() {
		return this.grant.fencingToken();
	}

	@Override
	public boolean isLeaseLost() {
		return this.grant.isLost(System.nanoTime());
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	/**
	 * Extends the fixed lease in the table: it runs out the given time from now.
	 */
	@Override
	public void extend(Duration leaseTime) {
		RuntimeException refusal = LeaseExtensionRules.refusal(this, leaseTime, isReleased(), heldFor());
		if (refusal != null) {
			throw refusal;
		}
		if (!this.table.extend(this.grant, leaseTime)) {
			throw LeaseExtensionRules.lost(this, heldFor());
		}
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			exit();
		}
	}

	@Override
	public Observation observation() {
		return this.observation;
	}

	/**
	 * Sets the observation of this hold, which ends with its last hold; before the handle
	 * is given to its holder.
	 */
	void observe(Observation observation) {
		this.observation = observation;
	}

	Grant grant() {
		return this.grant;
	}

	/** The options it was acquired with, which say how it locks its key. */
	LockOptions options() {
		return this.options;
	}

	Duration minHoldTime() {
		return this.options.minHoldTime();
	}

	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.grant.grantedNanos());
	}

	/** Marks the loss of the lease reported; returns true only the first time. */
	boolean markLossReported() {
		return this.lossReported.compareAndSet(false, true);
	}

	/** Counts a re-entrant hold; false if the last hold already ended. */
	boolean enter() {
		return this.holds.enter();
	}

	/** Whether the last hold has ended. */
	boolean hasEnded() {
		return this.holds.hasEnded();
	}

	/**
	 * Ends one hold; the last one releases the lock and stops the observation of the
	 * hold, however the release went.
	 */
	void exit() {
		if (this.holds.exit()) {
			try {
				this.ending.lastHoldEnded(this);
			}
			finally {
				LockObservationDocumentation.stopHold(this.observation, this);
			}
		}
	}

	@Override
	public String toString() {
		return "InMemoryLockHandle[name=" + name() + ", key=" + key() + ", fencingToken=" + fencingToken()
				+ ", leaseTime=" + leaseTime() + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased()
				+ "]";
	}

}
