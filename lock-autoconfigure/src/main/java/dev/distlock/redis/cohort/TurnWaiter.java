package dev.distlock.redis.cohort;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Waits out a thread's place in line for a lock until a holder of its client passes it
 * the lock, it is made the representative, or its deadline passes. Each wait that ends
 * otherwise is settled in the {@link KeyCohort}: a holder that died or whose lease is in
 * doubt no longer keeps the line waiting, and a waiter that gives up leaves. A passed
 * lock is taken only while its validity lasts.
 */
final class TurnWaiter {

	private final KeyCohorts cohorts;

	private final PendingReleases pending;

	/**
	 * Creates the waiter of one client.
	 * @param cohorts the client's cohorts, to retire one that a waiter leaves idle
	 * @param pending releases a lock whose pass came too late to be used
	 */
	TurnWaiter(KeyCohorts cohorts, PendingReleases pending) {
		this.cohorts = cohorts;
		this.pending = pending;
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
	 * Takes the lock a holder passed on, unless its validity ran out while this thread
	 * was being woken (a pause, CPU starvation): then the thread goes to Redis instead,
	 * and the lock is released there by its owner token in the background.
	 */
	private Turn takeBaton(String key, KeyCohort queue, Baton baton) {
		if (!baton.lease().isPastDeadline()) {
			return new Turn.Passed(baton);
		}
		synchronized (queue) {
			queue.rejectBaton(baton);
		}
		this.pending.release(key, baton.token(), System.nanoTime() + baton.leaseNanos());
		return Turn.ACQUIRE_IN_REDIS;
	}

}
