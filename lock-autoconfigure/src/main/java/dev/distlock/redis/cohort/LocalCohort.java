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

import java.time.Duration;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisReachability;

/**
 * Passes locks between the threads of one client without Redis (lock cohorting). Per key,
 * one thread of the client at a time acquires the lock in Redis, the representative; the
 * others wait here, first come, first served. A holder that releases while others wait
 * here passes the lock to the first of them without a round trip: the key keeps the owner
 * token it was granted with, renewal goes on, and the new holder takes the next fencing
 * token of the block the grant in Redis reserved, so tokens still increase with every
 * holder. When the block is used up, the lease is not auto-renewed or is in doubt, or a
 * minimum hold applies, the lock is released in Redis instead, which hands it to the
 * waiters of other processes first, and the first thread waiting here becomes the
 * representative. Other processes so wait at most one block of holds longer than with
 * every hold through Redis.
 * <p>
 * Nothing local outlives a lease: once the hold that has the lock has lapsed (its lease
 * ran out by the local count or was found lost, or its thread died), the tenure ends, and
 * every thread of the client, waiting or not, goes to Redis as a thread of another client
 * would; the first waiter is woken at once. A key that disappears from Redis without a
 * disconnect ({@code DEL}, eviction, a failover that lost the last writes) stops the
 * passes within the {@link #CONFIRMATION_WINDOW}: a lock passes only while Redis
 * confirmed the owner token within it, and a pass made when the last confirmation is more
 * than half of it old has the token confirmed again in the background (an owner-checked
 * renewal), so that a contended lock costs one confirmation per half window, not one per
 * pass. A renewal or confirmation that finds the key gone ends the tenure
 * ({@link #holdLost}).
 */
public final class LocalCohort {

	/**
	 * How recently Redis must have confirmed that a lock's key holds the client's owner
	 * token for the lock to pass to another thread of the client without Redis: no hold
	 * begins by a local pass later than this after that confirmation, so after a key
	 * disappears from Redis no thread of the client starts a hold with it later than
	 * this.
	 */
	public static final Duration CONFIRMATION_WINDOW = Duration.ofMillis(100);

	private static final long WINDOW_NANOS = CONFIRMATION_WINDOW.toNanos();

	/**
	 * How old Redis's last confirmation of the token may be before a pass has it
	 * confirmed again in the background: half the window, so that the answer normally
	 * comes before the window closes.
	 */
	private static final long CONFIRM_AGAIN_NANOS = WINDOW_NANOS / 2;

	/** What a holder that releases a lock does with it ({@link #passOn}). */
	public enum Pass {

		/** The lock passed to the next thread of the client. */
		PASSED,

		/**
		 * The lock passed to the next thread of the client; have Redis confirm the owner
		 * token in the background, its last confirmation being half a window old.
		 */
		PASSED_CONFIRM_AGAIN,

		/**
		 * A thread of the client waits for the lock, but Redis last confirmed the owner
		 * token longer than the window ago: confirm it, then ask again.
		 */
		CONFIRM_FIRST,

		/**
		 * The lock does not pass: release it in Redis, and call {@link #releasedInRedis}.
		 */
		RELEASE_IN_REDIS

	}

	private final KeyCohorts cohorts = new KeyCohorts();

	private final int block;

	private final RedisReachability reachability;

	private final TurnWaiter waiter;

	/**
	 * Creates the cohort of one client.
	 * @param maxLocalPasses how many times in a row a lock may pass between threads of
	 * the client without Redis; 0 to always go through Redis
	 * @param reachability what the client knows of Redis: no pass while it is in doubt
	 * @param pending releases a lock whose pass came too late to be used
	 */
	public LocalCohort(int maxLocalPasses, RedisReachability reachability, PendingReleases pending) {
		this.block = maxLocalPasses + 1;
		this.reachability = reachability;
		this.waiter = new TurnWaiter(this.cohorts, pending, WINDOW_NANOS);
	}

	/**
	 * Returns how many fencing tokens an attempt in Redis reserves: enough for the lock
	 * to pass between threads of the client if its lease is auto-renewed and other
	 * threads of the client wait for it now, else one (so tokens of uncontended locks
	 * follow each other).
	 */
	public int tokensToReserve(String key, boolean passable) {
		KeyCohort queue = (passable && this.block > 1) ? this.cohorts.get(key) : null;
		if (queue == null) {
			return 1;
		}
		synchronized (queue) {
			return queue.hasWaiters() ? this.block : 1;
		}
	}

	/**
	 * Lines up for a lock: the representative's part at once if no thread of the client
	 * holds or acquires the lock; else a place in line, to {@link #awaitTurn await}, or,
	 * for a caller that may not wait, giving up (the lock is taken). A tenure that has
	 * lapsed is ended first: it keeps nobody out.
	 * @return the turn, or a {@link Turn.Queued place in line}
	 */
	public Turn enter(String key, boolean passable, long deadlineNanos) {
		if (this.block == 1) {
			return Turn.ACQUIRE_IN_REDIS;
		}
		boolean mayWait = deadlineNanos - System.nanoTime() > 0;
		while (true) {
			KeyCohort queue = this.cohorts.getOrCreate(key);
			QueuedThread promoted;
			Turn turn;
			synchronized (queue) {
				if (queue.isRetired()) {
					continue;
				}
				promoted = queue.endIfLapsed();
				if (queue.isFree()) {
					queue.becomeRepresentative();
					turn = Turn.ACQUIRE_IN_REDIS;
				}
				else if (!mayWait) {
					turn = Turn.GIVE_UP;
				}
				else {
					turn = new Turn.Queued(key, queue, queue.add(passable));
				}
			}
			if (promoted != null) {
				promoted.wake();
			}
			return turn;
		}
	}

	/**
	 * Waits in line until passed the lock, made the representative, or the deadline
	 * passes.
	 * @param queued the place in line {@link #enter} gave
	 * @return the turn: never {@link Turn.Queued}
	 */
	public Turn awaitTurn(Turn.Queued queued, long deadlineNanos) {
		return this.waiter.awaitTurn(queued, deadlineNanos);
	}

	/** The representative got the lock in Redis, with a block of fencing tokens. */
	public void acquiredInRedis(String key, PassableHold handle, int block) {
		update(key, (queue) -> {
			queue.acquiredInRedis(handle, block);
			return null;
		});
	}

	/** The representative did not get the lock: the first waiter here goes next. */
	public void representativeGaveUp(String key) {
		update(key, KeyCohort::representativeGaveUp);
	}

	/**
	 * Passes a lock that a holder releases to the first thread waiting for it here, if
	 * the hold allows it ({@link PassableHold#mayPassLocally}) and Redis confirmed its
	 * owner token within the {@link #CONFIRMATION_WINDOW}.
	 * @return what the holder does next: nothing more, confirm the token in the
	 * background, confirm it and call this again, or release the lock in Redis and call
	 * {@link #releasedInRedis}
	 */
	public Pass passOn(PassableHold handle) {
		KeyCohort queue = (this.block > 1) ? this.cohorts.get(handle.key()) : null;
		if (queue == null || !handle.mayPassLocally(this.reachability)) {
			return Pass.RELEASE_IN_REDIS;
		}
		long now = System.nanoTime();
		long confirmedAgo = now - handle.confirmedSendNanos();
		QueuedThread passedTo;
		boolean confirmAgain;
		synchronized (queue) {
			if (!queue.canPassOn(handle)) {
				return Pass.RELEASE_IN_REDIS;
			}
			if (confirmedAgo >= WINDOW_NANOS) {
				return Pass.CONFIRM_FIRST;
			}
			passedTo = queue.passOn(handle);
			confirmAgain = confirmedAgo >= CONFIRM_AGAIN_NANOS && queue.claimConfirmation(now, CONFIRM_AGAIN_NANOS);
		}
		passedTo.wake();
		return confirmAgain ? Pass.PASSED_CONFIRM_AGAIN : Pass.PASSED;
	}

	/**
	 * The thread passed the lock now holds it with its own handle.
	 * @return whether the client still holds the lock with the hold's token: false if the
	 * key was found lost while the lock passed to it (the hold is lost)
	 */
	public boolean heldBy(PassableHold handle) {
		KeyCohort queue = (this.block > 1) ? this.cohorts.get(handle.key()) : null;
		if (queue == null) {
			return false;
		}
		synchronized (queue) {
			boolean held = queue.heldBy(handle);
			this.cohorts.retireIfIdle(handle.key(), queue);
			return held;
		}
	}

	/**
	 * A hold of the client no longer has the lock: its lease ran out by the local count
	 * or was found lost, or Redis no longer holds its key with its owner token. If the
	 * client held the lock with that token, it no longer does: no thread gets it without
	 * Redis (a thread passed the lock that has not taken it yet goes to Redis instead),
	 * and the first thread waiting here is woken to go to Redis.
	 * @return whether the lock was passing between threads with that token: its last
	 * holder had passed it on, and the thread passed it had not taken it yet, so no hold
	 * of the client that is still going has the token, and the loss is the client's to
	 * report on the hold told of it even though that hold has ended (no release of the
	 * client can have removed the key: only a holder releases it in Redis)
	 */
	public boolean holdLost(PassableHold hold) {
		boolean[] passing = new boolean[1];
		update(hold.key(), (queue) -> {
			passing[0] = queue.isPassingWith(hold.token());
			return queue.tokenLost(hold.token());
		});
		return passing[0];
	}

	/** A hold ended in Redis: if it was the client's, the first waiter goes next. */
	public void releasedInRedis(PassableHold handle) {
		update(handle.key(), (queue) -> queue.releasedInRedis(handle));
	}

	/**
	 * Changes the cohort of a key, if the client passes locks at all and the key has one;
	 * see {@link KeyCohorts#update}.
	 * @return whether a waiter was woken
	 */
	private boolean update(String key, Function<KeyCohort, @Nullable QueuedThread> change) {
		return this.block > 1 && this.cohorts.update(key, change);
	}

}
