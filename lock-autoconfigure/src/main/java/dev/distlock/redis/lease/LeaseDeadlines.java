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

package dev.distlock.redis.lease;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Tells the listener when a hold's local deadline passes while the hold lasts, whether or
 * not any reply from Redis comes: each watched hold has one task on the renewal thread,
 * due at its deadline; when it runs and finds the deadline moved by a renewal, it waits
 * for the new one. The task is dropped when the hold stops being watched (its release),
 * and does nothing once the hold has ended or its lease was found lost otherwise. The
 * listener is told at most once per hold: it marks the lease lost first.
 */
final class LeaseDeadlines<H extends RenewedHold> {

	private static final Future<?> DONE = CompletableFuture.completedFuture(null);

	private final Map<H, Future<?>> watched = new ConcurrentHashMap<>();

	private final RenewalScheduler scheduler;

	private final RenewalListener<H> listener;

	LeaseDeadlines(RenewalScheduler scheduler, RenewalListener<H> listener) {
		this.scheduler = scheduler;
		this.listener = listener;
	}

	/**
	 * Watches the deadline of a hold until {@link #unwatch} or its end.
	 * @param reason why a hold whose deadline passed counts as lost, for the log
	 */
	void watch(H hold, String reason) {
		this.watched.compute(hold, (key, previous) -> {
			if (previous != null) {
				drop(previous);
			}
			return at(hold, reason);
		});
	}

	/** Stops watching the hold: its task is dropped. */
	void unwatch(H hold) {
		Future<?> task = this.watched.remove(hold);
		if (task != null) {
			drop(task);
		}
	}

	/**
	 * Cancels a task on the renewal thread. Cancelling takes it out of the scheduler's
	 * queue under the queue's lock, which a reactive release must not wait for on an
	 * event loop; scheduling only adds to the queue, as Reactor's own timers do from
	 * those threads.
	 */
	private void drop(Future<?> task) {
		try {
			this.scheduler.schedule(() -> task.cancel(false), 0);
		}
		catch (RejectedExecutionException ex) {
			// Closed: the task will not run either.
			task.cancel(false);
		}
	}

	/** Stops watching every hold (the thread has been closed). */
	void clear() {
		this.watched.clear();
	}

	int size() {
		return this.watched.size();
	}

	private Future<?> at(H hold, String reason) {
		long delay = Math.max(0, hold.validUntilNanos() - System.nanoTime());
		try {
			return this.scheduler.schedule(() -> check(hold, reason), delay);
		}
		catch (RejectedExecutionException ex) {
			// Closed: nothing is reported any more.
			return DONE;
		}
	}

	private void check(H hold, String reason) {
		// A deadline that has passed never moves again, so reading it before the end
		// means the hold was still held past its deadline.
		boolean past = hold.validUntilNanos() - System.nanoTime() <= 0;
		if (hold.hasEnded()) {
			this.watched.remove(hold);
		}
		else if (past) {
			this.watched.remove(hold);
			this.listener.leaseLost(hold, reason);
		}
		else if (hold.isLeaseLost()) {
			// Found lost otherwise (a renewal found the key gone): already told.
			this.watched.remove(hold);
		}
		else {
			this.watched.computeIfPresent(hold, (key, task) -> at(hold, reason));
		}
	}

}
