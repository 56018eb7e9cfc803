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

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.DaemonThreads;

/**
 * The thread of one client's renewal rounds: started on first use, it runs a round every
 * renewal period once rounds are started, a round out of turn when asked (after a
 * reconnect), and tasks that must run at a given time (a confirmation sent again, a
 * lease's local deadline). Once closed, it runs nothing more.
 */
final class RenewalScheduler implements AutoCloseable {

	private final Runnable round;

	private final long periodNanos;

	private volatile @Nullable ScheduledThreadPoolExecutor executor;

	private volatile boolean roundsStarted;

	private boolean closed;

	/**
	 * Creates the scheduler of one client.
	 * @param round runs one renewal round; must not throw
	 * @param periodNanos the renewal period: the pause between the end of a round and the
	 * start of the next
	 */
	RenewalScheduler(Runnable round, long periodNanos) {
		this.round = round;
		this.periodNanos = periodNanos;
	}

	/** Whether the rounds have been started (and perhaps closed since). */
	boolean isStarted() {
		return this.roundsStarted;
	}

	/**
	 * Starts the rounds unless started already: a round every period from then on.
	 * @return the executor of the thread
	 */
	synchronized ScheduledExecutorService start() {
		ScheduledThreadPoolExecutor running = executor();
		if (!this.roundsStarted) {
			running.scheduleWithFixedDelay(this.round, this.periodNanos, this.periodNanos, TimeUnit.NANOSECONDS);
			this.roundsStarted = true;
		}
		return running;
	}

	/**
	 * Runs a task on the thread after a delay, starting the thread (but not the rounds)
	 * if need be; a task cancelled before it runs is dropped at once.
	 * @param task the task; must not throw
	 * @param delayNanos the delay
	 * @return the scheduled task
	 * @throws RejectedExecutionException once closed
	 */
	ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
		return executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
	}

	private synchronized ScheduledThreadPoolExecutor executor() {
		ScheduledThreadPoolExecutor running = this.executor;
		if (this.closed) {
			throw new RejectedExecutionException("Lease renewal has been closed");
		}
		if (running == null) {
			running = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("distlock-renewal"));
			running.setRemoveOnCancelPolicy(true);
			this.executor = running;
		}
		return running;
	}

	/**
	 * Runs a round now, on the thread, if the rounds have been started and not closed.
	 */
	void runRoundSoon() {
		ScheduledThreadPoolExecutor running = this.executor;
		if (running != null && this.roundsStarted && !running.isShutdown()) {
			try {
				running.execute(this.round);
			}
			catch (RuntimeException ex) {
				// Closed.
			}
		}
	}

	/** Stops the thread, if it has been started. */
	@Override
	public synchronized void close() {
		this.closed = true;
		ScheduledThreadPoolExecutor running = this.executor;
		if (running != null) {
			running.shutdownNow();
		}
	}

}
