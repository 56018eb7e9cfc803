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

package dev.distlock.memory;

import java.util.ArrayDeque;
import java.util.Deque;

import dev.distlock.LockKind;

/**
 * The state of one key in a {@link LockTable}: its holders, and the requests waiting for
 * it, first come, first served. An exclusive key has one holder at a time
 * ({@link KeyLine}); a read-write lock or a semaphore may have several
 * ({@link SharedKeyLine}). Both keep their waiting requests here, in arrival order.
 * Touched only under the table's mutex.
 */
abstract class LockLine {

	/** The requests waiting for the key, in arrival order. */
	protected final Deque<LockRequest> waiting = new ArrayDeque<>();

	/** The way every holder and waiter of the key locks it. */
	abstract LockKind kind();

	/**
	 * Brings the key up to date: takes it back from grants that ran out, ends minimum
	 * holds that are over, and grants it to the waiting requests at the head of the line
	 * that it admits now.
	 */
	abstract void settle(long nowNanos, FencingTokens tokens);

	/** Whether a new request can be granted the key now, ahead of nobody. */
	abstract boolean admitsNow(LockRequest request);

	/** Whether nobody holds, keeps or waits for the key, so that it can be forgotten. */
	abstract boolean isFree();

	/** Grants the key to a request, which claims it when its thread takes it up. */
	abstract Grant grant(LockRequest request, FencingTokens tokens);

	/** Puts a request at the end of the line. */
	final void enqueue(LockRequest request) {
		this.waiting.addLast(request);
	}

	/** Whether the request is the first in line. */
	final boolean isFirst(LockRequest request) {
		return this.waiting.peekFirst() == request;
	}

	/** Wakes the first waiting request to look again when the key may become free. */
	final void alertFirst() {
		LockRequest first = this.waiting.peekFirst();
		if (first != null) {
			first.alert();
		}
	}

	/**
	 * Takes a request that gives up out of the line; a grant it was given in the
	 * meantime, which it never used, is taken back.
	 */
	final void leave(LockRequest request) {
		this.waiting.remove(request);
		Grant unused = request.grant();
		if (unused != null && takeBack(unused)) {
			unused.markLost();
		}
	}

	/**
	 * Takes the key back from a grant its request never used.
	 * @return whether the grant held the key
	 */
	abstract boolean takeBack(Grant unused);

	/**
	 * Ends a grant, if it still holds the key: the key stays kept until the end of its
	 * minimum hold.
	 * @param keepUntilNanos the end of the grant's minimum hold
	 * @return whether the grant still held the key
	 */
	abstract boolean release(Grant grant, long keepUntilNanos, long nowNanos);

	/**
	 * Returns how long the first waiter may sleep before the key can admit it without a
	 * release: until a fixed lease or a minimum hold ends, or, for an auto-renewing
	 * lease, one lease, after which it checks whether the holder thread has ended.
	 */
	abstract long nanosUntilChange(long nowNanos);

}
