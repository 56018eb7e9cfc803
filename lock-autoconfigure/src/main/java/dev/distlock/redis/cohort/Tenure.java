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

package dev.distlock.redis.cohort;

import org.jspecify.annotations.Nullable;

/**
 * The client's tenure of one lock in Redis, as its {@link KeyCohort} keeps it: the owner
 * token the key is held with, the hold that has the lock now (or, while it passes between
 * threads, what was passed), the fencing tokens of the block the grant in Redis reserved
 * that no hold has taken yet, and when a confirmation of the token was last asked for.
 * Touched only under the monitor of its {@link KeyCohort}.
 */
final class Tenure {

	private @Nullable String token;

	private @Nullable PassableHold holder;

	private @Nullable Baton passing;

	private long nextFence;

	private long lastFence;

	private long confirmationAskedNanos;

	/** Whether the client holds the lock in Redis. */
	boolean isHeld() {
		return this.token != null;
	}

	/** Whether the client holds the lock in Redis with the given owner token. */
	boolean isHeldWith(String token) {
		return token.equals(this.token);
	}

	/**
	 * Whether the client holds the lock in Redis with the given owner token and it is
	 * passing between threads: its last holder passed it on, and the thread passed it has
	 * not taken it yet ({@link #heldBy}), so no hold of the client that is still going
	 * has it.
	 */
	boolean isPassingWith(String token) {
		return isHeldWith(token) && this.holder == null && this.passing != null;
	}

	/** Whether the given hold is the one that has the lock now. */
	boolean isHolder(PassableHold handle) {
		return this.holder == handle;
	}

	/**
	 * Whether the tenure has lapsed: the hold that has the lock may no longer have it
	 * (its thread died, its lease was lost or its local deadline passed), or the lock was
	 * passed on and the validity it carries ran out before its new holder took it.
	 * Nothing of the client may then treat the lock as held.
	 */
	boolean hasLapsed() {
		if (this.token == null) {
			return false;
		}
		PassableHold current = this.holder;
		if (current != null) {
			return !current.isHoldingHealthily();
		}
		Baton passed = this.passing;
		return passed != null && passed.lease().isLost();
	}

	/** Whether the block still has a fencing token for another hold. */
	boolean hasTokensLeft() {
		return this.nextFence <= this.lastFence;
	}

	/**
	 * Claims asking Redis to confirm the owner token in the background, unless that was
	 * asked less than the given time ago.
	 * @return whether to ask now
	 */
	boolean claimConfirmation(long nowNanos, long intervalNanos) {
		if (nowNanos - this.confirmationAskedNanos < intervalNanos) {
			return false;
		}
		this.confirmationAskedNanos = nowNanos;
		return true;
	}

	/**
	 * Begins a tenure: the hold got the lock in Redis with a block of fencing tokens, the
	 * first of them its own.
	 */
	void begin(PassableHold handle, int block) {
		this.token = handle.token();
		this.holder = handle;
		this.passing = null;
		this.nextFence = handle.fencingToken() + 1;
		this.lastFence = handle.fencingToken() + block - 1;
		this.confirmationAskedNanos = handle.confirmedSendNanos();
	}

	/**
	 * Takes the lock from its holder to pass it on, with the next fencing token of the
	 * block.
	 * @return what passes to the next holder
	 */
	Baton passOn(PassableHold handle) {
		this.holder = null;
		Baton baton = new Baton(handle.token(), this.nextFence++, handle.leasePassedOn(), handle.leaseTime().toNanos());
		this.passing = baton;
		return baton;
	}

	/** The thread passed the lock now holds it with its own handle, if still held. */
	void heldBy(PassableHold handle) {
		if (isHeldWith(handle.token())) {
			this.holder = handle;
			this.passing = null;
		}
	}

	/** Ends the tenure: the client no longer holds the lock in Redis. */
	void end() {
		this.token = null;
		this.holder = null;
		this.passing = null;
	}

}
