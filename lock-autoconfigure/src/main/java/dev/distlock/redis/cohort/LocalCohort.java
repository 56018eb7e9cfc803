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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.cohort.KeyCohort.Waiter;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.wait.WaitTimings;

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
 * The flow of one thread, top to bottom in this class:
 * <ol>
 * <li>{@link #enter}: the thread takes the representative's part at once if no thread of
 * the client holds or acquires the lock, else a place in line ({@link Turn.Queued}), or
 * gives up if it may not wait.</li>
 * <li>{@link #awaitTurn}: it waits in line until a holder passes it the lock, it is made
 * the representative, or its deadline passes. A holder's lease that runs out or is lost
 * ends the client's tenure at once and wakes the first waiter ({@link #holdLost}); each
 * wait that ends otherwise (at the latest after {@link WaitTimings#MAX_SILENT_WAIT}, the
 * backstop for a missed wake-up) is settled in the {@code KeyCohort}: a tenure that
 * lapsed no longer keeps the line waiting, and a waiter that gives up leaves. A passed
 * lock is taken only while the client still holds it with the token it was passed with
 * and its validity lasts (else the thread goes to Redis, and the lock is released there
 * in the background: {@link LateRelease}); if Redis last confirmed the token longer than
 * the {@link #CONFIRMATION_WINDOW} ago, the new holder has it confirmed before its hold
 * begins ({@link Turn.Passed#confirmFirst}).</li>
 * <li>The representative tells how it fared in Redis: {@link #acquiredInRedis} begins the
 * client's tenure with the block of fencing tokens, {@link #representativeGaveUp} gives
 * its part to the first waiter.</li>
 * <li>{@link #passOn}: a holder that releases passes the lock to the first waiter if it
 * may; else it releases the lock in Redis and calls {@link #releasedInRedis}, and the
 * first waiter goes to Redis next. The thread passed the lock holds it with its own
 * handle from {@link #heldBy} on.</li>
 * </ol>
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
 * <p>
 * The state of each key is a {@code KeyCohort}, created when a thread of the client lines
 * up for a key that has none, and retired and removed once it is idle again (no thread of
 * the client holds, acquires or waits for the lock), so that the map holds only keys in
 * use; a thread that finds a cohort retired takes a new one. Every change to a cohort
 * happens under its monitor, and the waiters it names are woken after leaving it.
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

	/**
	 * Releases in Redis, in the background and by its owner token, a lock passed to a
	 * thread too late to be used: the client's
	 * {@link dev.distlock.redis.protocol.PendingReleases#release(String, String, long)}.
	 */
	@FunctionalInterface
	public interface LateRelease {

		/**
		 * Releases a lock in the background.
		 * @param key the Redis key of the lock
		 * @param token the owner token it is held with
		 * @param boundNanos when to stop trying, by {@link System#nanoTime()}: the key
		 * has expired by then
		 */
		void release(String key, String token, long boundNanos);

	}

	private final Map<String, KeyCohort> cohorts = new ConcurrentHashMap<>();

	private final int block;

	private final RedisReachability reachability;

	private final LateRelease lateRelease;

	/**
	 * Creates the cohort of one client.
	 * @param maxLocalPasses how many times in a row a lock may pass between threads of
	 * the client without Redis; 0 to always go through Redis
	 * @param reachability what the client knows of Redis: no pass while it is in doubt
	 * @param lateRelease releases a lock whose pass came too late to be used
	 */
	public LocalCohort(int maxLocalPasses, RedisReachability reachability, LateRelease lateRelease) {
		this.block = maxLocalPasses + 1;
		this.reachability = reachability;
		this.lateRelease = lateRelease;
	}

	/**
	 * Returns how many fencing tokens an attempt in Redis reserves: enough for the lock
	 * to pass between threads of the client if its lease is auto-renewed and other
	 * threads of the client wait for it now, else one (so tokens of uncontended locks
	 * follow each other).
	 */
	public int tokensToReserve(String key, boolean passable) {
		KeyCohort queue = passable ? cohortOf(key) : null;
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
			KeyCohort queue = this.cohorts.computeIfAbsent(key, KeyCohort::new);
			Waiter promoted;
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
					turn = queue.add(passable);
				}
			}
			wake(promoted);
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
		// Every place in line is a waiter of a cohort: enter makes them.
		Waiter waiter = (Waiter) queued;
		KeyCohort queue = waiter.cohort();
		while (true) {
			long remaining = deadlineNanos - System.nanoTime();
			boolean interrupted = !waiter.await(Math.min(remaining, WaitTimings.MAX_SILENT_WAIT.toNanos()));
			boolean givingUp = interrupted || deadlineNanos - System.nanoTime() <= 0;
			Waiter.State state = waiter.state();
			if (state == Waiter.State.WAITING || (state == Waiter.State.PROMOTED && givingUp)) {
				Deque<Waiter> wake = new ArrayDeque<>(1);
				synchronized (queue) {
					state = queue.settle(waiter, givingUp, wake);
					retireIfIdle(queue);
				}
				wake.forEach(Waiter::wake);
			}
			switch (state) {
				case PASSED -> {
					return takeBaton(queue, Objects.requireNonNull(waiter.baton()));
				}
				case PROMOTED -> {
					return Turn.ACQUIRE_IN_REDIS;
				}
				case GAVE_UP -> {
					return Turn.GIVE_UP;
				}
				default -> {
				}
			}
		}
	}

	/**
	 * Takes the lock a holder passed on, unless, while this thread was being woken (a
	 * pause, CPU starvation), the client stopped holding it with that token (the key was
	 * found gone, or the tenure lapsed) or its validity ran out: then the thread goes to
	 * Redis instead, and the lock is released there by its owner token in the background.
	 * If Redis's last confirmation of the token became older than the window meanwhile,
	 * the lock is taken all the same, to be confirmed before the hold begins: a lock
	 * released here instead would leave a key found gone by that release, or by a
	 * confirmation answered after it, untold to the client.
	 */
	private Turn takeBaton(KeyCohort queue, Baton baton) {
		synchronized (queue) {
			if (queue.isHeldWith(baton) && !baton.lease().isLost()) {
				boolean confirmedLately = System.nanoTime() - baton.lease().confirmedSendNanos() < WINDOW_NANOS;
				return new Turn.Passed(baton, !confirmedLately);
			}
			queue.rejectBaton(baton);
		}
		this.lateRelease.release(queue.key(), baton.token(), System.nanoTime() + baton.leaseNanos());
		return Turn.ACQUIRE_IN_REDIS;
	}

	/** The representative got the lock in Redis, with a block of fencing tokens. */
	public void acquiredInRedis(String key, PassableHold handle, int block) {
		KeyCohort queue = cohortOf(key);
		if (queue == null) {
			return;
		}
		synchronized (queue) {
			queue.acquiredInRedis(handle, block);
			retireIfIdle(queue);
		}
	}

	/** The representative did not get the lock: the first waiter here goes next. */
	public void representativeGaveUp(String key) {
		KeyCohort queue = cohortOf(key);
		if (queue == null) {
			return;
		}
		Waiter promoted;
		synchronized (queue) {
			promoted = queue.representativeGaveUp();
			retireIfIdle(queue);
		}
		wake(promoted);
	}

	/**
	 * Returns whether a thread of the client waits here for the key's lock, to be passed
	 * it by its holder.
	 * @param key the Redis key of the lock
	 * @return whether one waits
	 */
	public boolean othersWaitFor(String key) {
		KeyCohort queue = cohortOf(key);
		if (queue == null) {
			return false;
		}
		synchronized (queue) {
			return queue.hasPassableWaiter();
		}
	}

	/**
	 * Whether a hand-over that Redis keeps for its claim window only, and that other
	 * threads of the client wait to be passed, is to be confirmed in Redis at once: its
	 * last confirmation (the request that queued the client) is half the
	 * {@link #CONFIRMATION_WINDOW} old already, so that its first pass would have it
	 * confirmed anyway, or the hold could not pass the lock on as it stands
	 * ({@link PassableHold#mayPassLocally}: too little of the claim left). Otherwise the
	 * lock passes on the claim, and a pass has it confirmed in the background once the
	 * last confirmation is half the window old, as any pass does; the hold passed it
	 * confirms it if it lasts. The new holder's work then starts without a confirmation
	 * being sent beside it.
	 * @param hold the hold handed over
	 * @return whether to confirm it at once
	 */
	public boolean passNeedsConfirmation(PassableHold hold) {
		return System.nanoTime() - hold.confirmedSendNanos() >= CONFIRM_AGAIN_NANOS
				|| !hold.mayPassLocally(this.reachability);
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
		KeyCohort queue = cohortOf(handle.key());
		if (queue == null) {
			return Pass.RELEASE_IN_REDIS;
		}
		Waiter passedTo;
		boolean confirmAgain;
		synchronized (queue) {
			// Nobody to pass to is the common case: asked first, it spares asking the
			// hold (which reads only volatile state, and takes no monitor).
			if (!queue.canPassOn(handle) || !handle.mayPassLocally(this.reachability)) {
				return Pass.RELEASE_IN_REDIS;
			}
			long now = System.nanoTime();
			long confirmedAgo = now - handle.confirmedSendNanos();
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
		KeyCohort queue = cohortOf(handle.key());
		if (queue == null) {
			return false;
		}
		synchronized (queue) {
			boolean held = queue.heldBy(handle);
			retireIfIdle(queue);
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
		KeyCohort queue = cohortOf(hold.key());
		if (queue == null) {
			return false;
		}
		boolean passing;
		Waiter promoted;
		synchronized (queue) {
			passing = queue.isPassingWith(hold.token());
			promoted = queue.tokenLost(hold.token());
			retireIfIdle(queue);
		}
		wake(promoted);
		return passing;
	}

	/** A hold ended in Redis: if it was the client's, the first waiter goes next. */
	public void releasedInRedis(PassableHold handle) {
		KeyCohort queue = cohortOf(handle.key());
		if (queue == null) {
			return;
		}
		Waiter promoted;
		synchronized (queue) {
			promoted = queue.tokenLost(handle.token());
			retireIfIdle(queue);
		}
		wake(promoted);
	}

	/**
	 * Returns the cohort of a key, if the client passes locks at all and a thread of it
	 * holds, acquires or waits for the lock.
	 */
	private @Nullable KeyCohort cohortOf(String key) {
		return (this.block > 1) ? this.cohorts.get(key) : null;
	}

	/** Removes a cohort from the client's if it became idle; call holding its monitor. */
	private void retireIfIdle(KeyCohort queue) {
		if (queue.retireIfIdle()) {
			this.cohorts.remove(queue.key(), queue);
		}
	}

	private static void wake(@Nullable Waiter waiter) {
		if (waiter != null) {
			waiter.wake();
		}
	}

}
