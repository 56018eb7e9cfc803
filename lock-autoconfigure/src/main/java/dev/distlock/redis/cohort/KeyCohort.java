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

import java.util.Deque;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock among the threads of one client: whether the client holds it in
 * Redis (its {@link Tenure}: with which owner token and which reserved fencing tokens),
 * and the {@link ThreadLine line} of its threads: whether one of them is acquiring it in
 * Redis (the representative), and those waiting for it here, in arrival order. Only
 * {@link LocalCohort} and its {@link TurnWaiter} touch it, always holding its monitor; a
 * cohort that became idle is retired and removed from its {@link KeyCohorts}. Waiters are
 * only marked here, and woken after leaving the monitor.
 */
final class KeyCohort {

	private final Tenure tenure = new Tenure();

	private final ThreadLine line = new ThreadLine();

	private boolean retired;

	/**
	 * Whether no thread of the client holds or acquires the lock: the next one goes to
	 * Redis.
	 */
	boolean isFree() {
		return !this.tenure.isHeld() && !this.line.hasRepresentative();
	}

	boolean isIdle() {
		return isFree() && !this.line.hasWaiters();
	}

	boolean hasWaiters() {
		return this.line.hasWaiters();
	}

	boolean isRetired() {
		return this.retired;
	}

	void retire() {
		this.retired = true;
	}

	void becomeRepresentative() {
		this.line.becomeRepresentative();
	}

	QueuedThread add(boolean passable) {
		return this.line.add(passable);
	}

	/** The representative got the lock in Redis with a block of fencing tokens. */
	void acquiredInRedis(PassableHold handle, int block) {
		this.line.representativeDone();
		this.tenure.begin(handle, block);
	}

	/**
	 * The representative did not get the lock; the first waiter here takes its place.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread representativeGaveUp() {
		this.line.representativeDone();
		return this.line.promoteFirst();
	}

	/**
	 * Whether the lock may pass from a holder to the first waiter here, as far as the
	 * line goes: the hold has the lock, the first waiter takes passed locks, and the
	 * block has a fencing token left.
	 */
	boolean canPassOn(PassableHold handle) {
		QueuedThread first = this.line.first();
		return this.tenure.isHolder(handle) && first != null && first.passable && this.tenure.hasTokensLeft();
	}

	/**
	 * Passes the lock from a holder to the first waiter here, without Redis; call only if
	 * {@link #canPassOn} said it may.
	 * @return the waiter passed the lock, to wake
	 */
	QueuedThread passOn(PassableHold handle) {
		QueuedThread first = Objects.requireNonNull(this.line.first());
		this.line.removeFirst();
		first.pass(this.tenure.passOn(handle));
		return first;
	}

	/**
	 * Claims asking Redis to confirm the tenure's owner token in the background, unless
	 * that was asked less than the given time ago.
	 * @return whether to ask now
	 */
	boolean claimConfirmation(long nowNanos, long intervalNanos) {
		return this.tenure.claimConfirmation(nowNanos, intervalNanos);
	}

	/**
	 * Whether a lock passed on may still be taken: the client holds it with the token it
	 * was passed with (the tenure has not ended since: lapsed, or the key found gone).
	 */
	boolean isHeldWith(Baton baton) {
		return this.tenure.isHeldWith(baton.token());
	}

	/**
	 * The thread passed the lock found it run out: the client no longer holds the lock,
	 * and that thread acquires it in Redis next, as the representative.
	 */
	void rejectBaton(Baton baton) {
		if (this.tenure.isHeldWith(baton.token())) {
			this.tenure.end();
		}
		this.line.becomeRepresentative();
	}

	/**
	 * The thread that was passed the lock now holds it with its own handle.
	 * @return whether the client still holds the lock with the hold's token; if not, the
	 * key was found lost while the lock passed to it
	 */
	boolean heldBy(PassableHold handle) {
		this.tenure.heldBy(handle);
		return this.tenure.isHeldWith(handle.token());
	}

	/**
	 * A hold ended in Redis: if it was the client's, the first waiter here goes to Redis
	 * next.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread releasedInRedis(PassableHold handle) {
		return tokenLost(handle.token());
	}

	/**
	 * Whether the client holds the lock with the given owner token and it is passing
	 * between threads: no hold of the client that is still going has it
	 * ({@link Tenure#isPassingWith}).
	 */
	boolean isPassingWith(String token) {
		return this.tenure.isPassingWith(token);
	}

	/**
	 * A hold with the given owner token no longer has the lock (its lease ran out, or
	 * Redis no longer holds the key with the token): if the client held the lock with it,
	 * it no longer does, and the first waiter here goes to Redis next.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread tokenLost(String token) {
		return this.tenure.isHeldWith(token) ? endTenure() : null;
	}

	/**
	 * Ends the tenure if it has lapsed ({@link Tenure#hasLapsed()}): the first waiter
	 * here goes to Redis next, as a caller of another client would.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread endIfLapsed() {
		return this.tenure.hasLapsed() ? endTenure() : null;
	}

	/**
	 * Settles a waiter whose wait ended without a pass or promotion: a tenure that lapsed
	 * (a holder that died or whose lease ran out or was lost) no longer keeps the waiters
	 * here (the first of them goes to Redis), and a waiter that gives up leaves, passing
	 * on the representative's part if it had just been given it.
	 * @param wake collects the waiters to wake
	 * @return the waiter's state
	 */
	QueuedThread.State settle(QueuedThread waiter, boolean givingUp, Deque<QueuedThread> wake) {
		if (waiter.state() == QueuedThread.State.WAITING) {
			addTo(wake, endIfLapsed());
		}
		QueuedThread.State state = waiter.state();
		if (!givingUp || state == QueuedThread.State.PASSED) {
			return state;
		}
		if (state == QueuedThread.State.PROMOTED) {
			addTo(wake, representativeGaveUp());
		}
		else {
			this.line.leave(waiter);
		}
		return QueuedThread.State.GAVE_UP;
	}

	private static void addTo(Deque<QueuedThread> wake, @Nullable QueuedThread waiter) {
		if (waiter != null) {
			wake.add(waiter);
		}
	}

	/** The client no longer holds the lock: the first waiter here goes to Redis next. */
	private @Nullable QueuedThread endTenure() {
		this.tenure.end();
		return this.line.promoteFirst();
	}

}
