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

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A thread waiting in a {@link KeyCohort}: it is either passed the lock by the holder of
 * its client, or made the representative that acquires the lock in Redis next. Its state
 * changes only under the queue's monitor, and {@link #wake} is called after leaving it; a
 * passed or promoted waiter stays so, so its thread reads that without the monitor.
 */
final class QueuedThread {

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

	final boolean passable;

	private final CountDownLatch woken = new CountDownLatch(1);

	private volatile State state = State.WAITING;

	private volatile @Nullable Baton baton;

	/**
	 * Creates a waiter.
	 * @param passable whether the lock may be passed to it without Redis: its lease is
	 * auto-renewed, like the holder's
	 */
	QueuedThread(boolean passable) {
		this.passable = passable;
	}

	State state() {
		return this.state;
	}

	@Nullable Baton baton() {
		return this.baton;
	}

	void pass(Baton baton) {
		this.baton = baton;
		this.state = State.PASSED;
	}

	void promote() {
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
