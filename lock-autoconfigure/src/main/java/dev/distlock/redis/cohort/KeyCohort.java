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

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock among the threads of one client. Two parts:
 * <ul>
 * <li>the client's tenure of the lock in Redis: the owner token the key is held with, the
 * hold that has the lock now (or, while it passes between threads, the {@link Baton} that
 * was passed), the fencing tokens of the block the grant in Redis reserved that no hold
 * has taken yet, and when a confirmation of the token was last asked for;</li>
 * <li>the line of its threads: whether one of them acquires the lock in Redis (the
 * representative), and the {@link Waiter}s here, first come, first served.</li>
 * </ul>
 * Only {@link LocalCohort} touches it, always holding its monitor, which guards all of
 * it; a cohort that became idle is retired ({@link #retireIfIdle}) and removed from the
 * client's cohorts. Waiters are only marked here, and woken after leaving the monitor.
 */
final class KeyCohort {

	private final String key;

	// The client's tenure: null token when the client does not hold the lock in Redis;
	// a null holder with a baton passing while the lock passes between threads.

	private @Nullable String token;

	private @Nullable PassableHold holder;

	private @Nullable Baton passing;

	private long nextFence;

	private long lastFence;

	private long confirmationAskedNanos;

	// The line of the client's threads.

	private final Deque<Waiter> waiters = new ArrayDeque<>();

	private boolean representative;

	private boolean retired;

	/**
	 * Creates the cohort of a key that a thread of the client lines up for.
	 * @param key the Redis key of the lock
	 */
	KeyCohort(String key) {
		this.key = key;
	}

	/** The Redis key of the lock. */
	String key() {
		return this.key;
	}

	/**
	 * Whether no thread of the client holds or acquires the lock: the next one goes to
	 * Redis.
	 */
	boolean isFree() {
		return this.token == null && !this.representative;
	}

	boolean hasWaiters() {
		return !this.waiters.isEmpty();
	}

	boolean isRetired() {
		return this.retired;
	}

	/**
	 * Retires the cohort if it is idle: no thread of the client holds, acquires or waits
	 * for the lock. A thread that finds it retired takes a new one.
	 * @return whether it was retired now, to be removed from the client's cohorts
	 */
	boolean retireIfIdle() {
		if (isFree() && this.waiters.isEmpty() && !this.retired) {
			this.retired = true;
			return true;
		}
		return false;
	}

	/** The calling thread acquires the lock in Redis next, as the representative. */
	void becomeRepresentative() {
		this.representative = true;
	}

	/**
	 * Adds a waiter at the end of the line.
	 * @param passable whether the lock may be passed to it without Redis
	 * @return its place in line
	 */
	Waiter add(boolean passable) {
		Waiter waiter = new Waiter(passable);
		this.waiters.addLast(waiter);
		return waiter;
	}

	/**
	 * The representative got the lock in Redis with a block of fencing tokens, the first
	 * of them its hold's: the client's tenure begins.
	 */
	void acquiredInRedis(PassableHold handle, int block) {
		this.representative = false;
		this.token = handle.token();
		this.holder = handle;
		this.passing = null;
		// A block of one token leaves none to pass the lock with, and the hold's own
		// token
		// is not read: a lock acquired without the acquire script has none until its
		// holder asks for it.
		long first = (block > 1) ? handle.fencingToken() : 0;
		this.nextFence = first + 1;
		this.lastFence = first + block - 1;
		this.confirmationAskedNanos = handle.confirmedSendNanos();
	}

	/**
	 * The representative did not get the lock; the first waiter here takes its place.
	 * @return the waiter to wake, if any
	 */
	@Nullable Waiter representativeGaveUp() {
		this.representative = false;
		return promoteFirst();
	}

	/**
	 * Whether the lock may pass from a holder to the first waiter here, as far as this
	 * cohort goes: the hold has the lock, the first waiter takes passed locks, and the
	 * block has a fencing token left.
	 */
	boolean hasPassableWaiter() {
		Waiter first = this.waiters.peekFirst();
		return first != null && first.passable;
	}

	boolean canPassOn(PassableHold handle) {
		Waiter first = this.waiters.peekFirst();
		return this.holder == handle && first != null && first.passable && this.nextFence <= this.lastFence;
	}

	/**
	 * Passes the lock from a holder to the first waiter here, without Redis, with the
	 * next fencing token of the block; call only if {@link #canPassOn} said it may.
	 * @return the waiter passed the lock, to wake
	 */
	Waiter passOn(PassableHold handle) {
		Waiter first = Objects.requireNonNull(this.waiters.pollFirst());
		this.holder = null;
		Baton baton = new Baton(handle.token(), this.nextFence++, handle.leasePassedOn(), handle.leaseTime().toNanos());
		this.passing = baton;
		first.pass(baton);
		return first;
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
	 * Whether a lock passed on may still be taken: the client holds it with the token it
	 * was passed with (the tenure has not ended since: lapsed, or the key found gone).
	 */
	boolean isHeldWith(Baton baton) {
		return isHeldWith(baton.token());
	}

	/**
	 * The thread passed the lock found it run out: the client no longer holds the lock,
	 * and that thread acquires it in Redis next, as the representative.
	 */
	void rejectBaton(Baton baton) {
		if (isHeldWith(baton.token())) {
			endTenure();
		}
		this.representative = true;
	}

	/**
	 * The thread that was passed the lock now holds it with its own handle, if the client
	 * still holds the lock with the hold's token.
	 * @return whether it does; if not, the key was found lost while the lock passed to it
	 */
	boolean heldBy(PassableHold handle) {
		if (!isHeldWith(handle.token())) {
			return false;
		}
		this.holder = handle;
		this.passing = null;
		return true;
	}

	/**
	 * Whether the client holds the lock with the given owner token and it is passing
	 * between threads: its last holder passed it on, and the thread passed it has not
	 * taken it yet ({@link #heldBy}), so no hold of the client that is still going has
	 * it.
	 */
	boolean isPassingWith(String token) {
		return isHeldWith(token) && this.holder == null && this.passing != null;
	}

	/**
	 * A hold with the given owner token no longer has the lock (it was released in Redis,
	 * its lease ran out, or Redis no longer holds the key with the token): if the client
	 * held the lock with it, it no longer does, and the first waiter here goes to Redis
	 * next.
	 * @return the waiter to wake, if any
	 */
	@Nullable Waiter tokenLost(String token) {
		return isHeldWith(token) ? endTenureAndPromote() : null;
	}

	/**
	 * Ends the tenure if it has lapsed: the hold that has the lock may no longer have it
	 * (its thread died, its lease was lost or its local deadline passed), or the lock was
	 * passed on and the validity it carries ran out before its new holder took it.
	 * Nothing of the client may then treat the lock as held: the first waiter here goes
	 * to Redis next, as a caller of another client would.
	 * @return the waiter to wake, if any
	 */
	@Nullable Waiter endIfLapsed() {
		return hasLapsed() ? endTenureAndPromote() : null;
	}

	private boolean hasLapsed() {
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

	/**
	 * Settles a waiter whose wait ended without a pass or promotion: a tenure that lapsed
	 * (a holder that died or whose lease ran out or was lost) no longer keeps the waiters
	 * here (the first of them goes to Redis), and a waiter that gives up leaves, passing
	 * on the representative's part if it had just been given it.
	 * @param wake collects the waiters to wake
	 * @return the waiter's state
	 */
	Waiter.State settle(Waiter waiter, boolean givingUp, Deque<Waiter> wake) {
		if (waiter.state() == Waiter.State.WAITING) {
			addTo(wake, endIfLapsed());
		}
		Waiter.State state = waiter.state();
		if (!givingUp || state == Waiter.State.PASSED) {
			return state;
		}
		if (state == Waiter.State.PROMOTED) {
			addTo(wake, representativeGaveUp());
		}
		else {
			this.waiters.remove(waiter);
		}
		return Waiter.State.GAVE_UP;
	}

	private static void addTo(Deque<Waiter> wake, @Nullable Waiter waiter) {
		if (waiter != null) {
			wake.add(waiter);
		}
	}

	private boolean isHeldWith(String token) {
		return token.equals(this.token);
	}

	/** The client no longer holds the lock: the first waiter here goes to Redis next. */
	private @Nullable Waiter endTenureAndPromote() {
		endTenure();
		return promoteFirst();
	}

	private void endTenure() {
		this.token = null;
		this.holder = null;
		this.passing = null;
	}

	/**
	 * Makes the first waiter the representative, out of the line.
	 * @return the waiter to wake, if any
	 */
	private @Nullable Waiter promoteFirst() {
		Waiter first = this.waiters.pollFirst();
		if (first != null) {
			this.representative = true;
			first.promote();
		}
		return first;
	}

	/**
	 * A thread waiting in this cohort, its {@link Turn.Queued place in line}: it is
	 * either passed the lock by the holder of its client, or made the representative that
	 * acquires the lock in Redis next. Its state changes only under the cohort's monitor,
	 * and {@link #wake} is called after leaving it; a passed or promoted waiter stays so,
	 * so its thread reads that without the monitor.
	 */
	final class Waiter implements Turn.Queued {

		/** Where a waiter stands. */
		enum State {

			/** Still waiting. */
			WAITING,

			/** Passed the lock by the previous holder of its client. */
			PASSED,

			/** To acquire the lock in Redis. */
			PROMOTED,

			/** Left without the lock. */
			GAVE_UP

		}

		/**
		 * Whether the lock may be passed to it without Redis: its lease is auto-renewed,
		 * like the holder's.
		 */
		final boolean passable;

		private final CountDownLatch woken = new CountDownLatch(1);

		private volatile State state = State.WAITING;

		private volatile @Nullable Baton baton;

		private Waiter(boolean passable) {
			this.passable = passable;
		}

		/** The cohort it waits in. */
		KeyCohort cohort() {
			return KeyCohort.this;
		}

		State state() {
			return this.state;
		}

		@Nullable Baton baton() {
			return this.baton;
		}

		private void pass(Baton baton) {
			this.baton = baton;
			this.state = State.PASSED;
		}

		private void promote() {
			this.state = State.PROMOTED;
		}

		void wake() {
			this.woken.countDown();
		}

		/**
		 * Waits until passed the lock, promoted, or the timeout passes.
		 * @return {@code false} if interrupted (with the interrupt flag set again)
		 */
		boolean await(long timeoutNanos) {
			try {
				this.woken.await(timeoutNanos, TimeUnit.NANOSECONDS);
				return true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}

	}

}
