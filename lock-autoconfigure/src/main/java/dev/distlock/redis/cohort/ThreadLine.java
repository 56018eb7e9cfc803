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

import org.jspecify.annotations.Nullable;

/**
 * The threads of one client in line for one lock, as its {@link KeyCohort} keeps them:
 * whether one of them acquires the lock in Redis (the representative), and those waiting
 * here, first come, first served. Touched only under the monitor of its
 * {@link KeyCohort}; waiters are only marked here, and woken after leaving it.
 */
final class ThreadLine {

	private final Deque<QueuedThread> waiters = new ArrayDeque<>();

	private boolean representative;

	/** Whether a thread of the client acquires the lock in Redis now. */
	boolean hasRepresentative() {
		return this.representative;
	}

	/** Whether threads wait here. */
	boolean hasWaiters() {
		return !this.waiters.isEmpty();
	}

	/** The calling thread acquires the lock in Redis next, as the representative. */
	void becomeRepresentative() {
		this.representative = true;
	}

	/** The representative is done in Redis: it got the lock, or gave up. */
	void representativeDone() {
		this.representative = false;
	}

	/**
	 * Adds a waiter at the end of the line.
	 * @param passable whether the lock may be passed to it without Redis
	 * @return its place in line
	 */
	QueuedThread add(boolean passable) {
		QueuedThread waiter = new QueuedThread(passable);
		this.waiters.addLast(waiter);
		return waiter;
	}

	/** The first waiter, left in line; null if none waits. */
	@Nullable QueuedThread first() {
		return this.waiters.peekFirst();
	}

	/** Takes the first waiter out of the line, to pass it the lock. */
	void removeFirst() {
		this.waiters.pollFirst();
	}

	/** Takes a waiter that gives up out of the line. */
	void leave(QueuedThread waiter) {
		this.waiters.remove(waiter);
	}

	/**
	 * Makes the first waiter the representative, out of the line.
	 * @return the waiter to wake, if any
	 */
	@Nullable QueuedThread promoteFirst() {
		QueuedThread first = this.waiters.pollFirst();
		if (first != null) {
			this.representative = true;
			first.promote();
		}
		return first;
	}

}
