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

import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Waits out a thread's place in line for a lock until a holder of its client passes it
 * the lock, it is made the representative, or its deadline passes. A holder's lease that
 * runs out or is lost ends the client's tenure at once and wakes the first waiter
 * ({@link LocalCohort#holdLost}); each wait that ends otherwise (at the latest after
 * {@link WaitTimings#MAX_SILENT_WAIT}, the backstop for a missed wake-up) is settled in
 * the {@link KeyCohort}: a tenure that lapsed no longer keeps the line waiting, and a
 * waiter that gives up leaves. A passed lock is taken only while the client still holds
 * it with the token it was passed with and its validity lasts; if Redis last confirmed
 * the token longer than the {@link LocalCohort#CONFIRMATION_WINDOW} ago, the new holder
 * has it confirmed before its hold begins ({@link Turn.Passed#confirmFirst}).
 */
final class TurnWaiter {

	private final KeyCohorts cohorts;

	private final PendingReleases pending;

	private final long windowNanos;

	/**
	 * Creates the waiter of one client.
	 * @param cohorts the client's cohorts, to retire one that a waiter leaves idle
	 * @param pending releases a lock whose pass came too late to be used
	 * @param windowNanos how recently Redis must have confirmed the owner token of a lock
	 * passed on for it to be taken
	 */
	TurnWaiter(KeyCohorts cohorts, PendingReleases pending, long windowNanos) {
		this.cohorts = cohorts;
		this.pending = pending;
		this.windowNanos = windowNanos;
	}

	/**
	 * Waits in line until passed the lock, made the representative, or the deadline
	 * passes.
	 * @return the turn: never {@link Turn.Queued}
	 */
	Turn awaitTurn(Turn.Queued queued, long deadlineNanos) {
		String key = queued.key();
		KeyCohort queue = queued.cohort();
		QueuedThread waiter = queued.thread();
		while (true) {
			long remaining = deadlineNanos - System.nanoTime();
			boolean interrupted = !waiter.await(Math.min(remaining, WaitTimings.MAX_SILENT_WAIT.toNanos()));
			boolean givingUp = interrupted || deadlineNanos - System.nanoTime() <= 0;
			QueuedThread.State state = waiter.state();
			if (state == QueuedThread.State.WAITING || (state == QueuedThread.State.PROMOTED && givingUp)) {
				Deque<QueuedThread> wake = new ArrayDeque<>(1);
				synchronized (queue) {
					state = queue.settle(waiter, givingUp, wake);
					this.cohorts.retireIfIdle(key, queue);
				}
				wake.forEach(QueuedThread::wake);
			}
			switch (state) {
				case PASSED -> {
					return takeBaton(key, queue, Objects.requireNonNull(waiter.baton()));
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
	private Turn takeBaton(String key, KeyCohort queue, Baton baton) {
		synchronized (queue) {
			if (queue.isHeldWith(baton) && !baton.lease().isLost()) {
				boolean confirmedLately = System.nanoTime() - baton.lease().confirmedSendNanos() < this.windowNanos;
				return new Turn.Passed(baton, !confirmedLately);
			}
			queue.rejectBaton(baton);
		}
		this.pending.release(key, baton.token(), System.nanoTime() + baton.leaseNanos());
		return Turn.ACQUIRE_IN_REDIS;
	}

}
