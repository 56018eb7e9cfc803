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

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockKind;
import dev.distlock.LockMisconfigurationException;

/**
 * The keys of one in-memory client, each with its grants and its line of waiting requests
 * ({@link KeyLine} for an exclusive lock, {@link SharedKeyLine} for a read-write lock or
 * a semaphore), under one mutex: a critical section is a few map and queue operations, so
 * one mutex for all keys keeps the code simple at no cost that matters for tests and a
 * single development instance. Waiters sleep on a condition of their own, woken when they
 * are granted the key, when they come first in line or the key's holder changes while
 * they are first, and otherwise at their deadline: no polling. Keys nobody holds, keeps
 * or waits for are forgotten; those left behind by a lease that ran out are swept once
 * the table has doubled in size since the last sweep.
 */
final class LockTable {

	private static final int MIN_SWEEP_SIZE = 64;

	private final ReentrantLock mutex = new ReentrantLock();

	private final Map<String, LockLine> lines = new HashMap<>();

	private final FencingTokens tokens = new FencingTokens();

	private int sweepAtSize = MIN_SWEEP_SIZE;

	/**
	 * Grants the key at once if it admits the request and nobody waits for it; otherwise
	 * queues the request at the end of the key's line if it may wait.
	 * @return the claimed grant, or null if the key is held, kept or waited for
	 * @throws dev.distlock.LockMisconfigurationException if the key is held or waited for
	 * in another way than the request asks for
	 */
	@Nullable Grant attempt(LockRequest request, boolean mayWait) {
		this.mutex.lock();
		try {
			long now = System.nanoTime();
			sweepIfGrown(now);
			LockLine line = lineFor(request, now);
			if (line.admitsNow(request)) {
				Grant grant = line.grant(request, this.tokens);
				grant.claim(now);
				return grant;
			}
			if (mayWait) {
				request.queued(this.mutex.newCondition());
				line.enqueue(request);
			}
			return null;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Returns the up-to-date line of the request's key, new if nobody holds, keeps or
	 * waits for it; one of another kind than the request's fails it.
	 */
	private LockLine lineFor(LockRequest request, long now) {
		LockLine line = this.lines.get(request.key());
		if (line != null) {
			line.settle(now, this.tokens);
			if (line.isFree()) {
				this.lines.remove(request.key());
				line = null;
			}
		}
		if (line == null) {
			line = request.kind().isShared() ? new SharedKeyLine(request.kind()) : new KeyLine();
			this.lines.put(request.key(), line);
		}
		if (!line.kind().sharesKeyWith(request.kind())) {
			throw mismatch(request.key(), line.kind(), request.kind());
		}
		return line;
	}

	/**
	 * Returns the failure of a call that asks for a key in another way than it is held or
	 * waited for, as in Redis, where an exclusive lock, a read-write lock and a semaphore
	 * live in different structures and a semaphore's holders are counted against one
	 * size.
	 * @param key the key
	 * @param current the kind the key is held or waited for as
	 * @param asked the kind the call asks for
	 * @return the exception, naming the key and both kinds
	 */
	private static LockMisconfigurationException mismatch(String key, LockKind current, LockKind asked) {
		String fix = (current.isSemaphore() && asked.isSemaphore())
				? "Every use of a key must give the same permits, because all its holders are counted against one "
						+ "size; give the same permits everywhere, or use different keys."
				: "Redis keeps exclusive locks, read-write locks and semaphores in different structures, so one key "
						+ "cannot be locked in two of these ways; lock it the same way everywhere, or use different "
						+ "keys.";
		String askedFor = asked.isReadWrite() ? "the " + asked.modeLabel() + " side of a read-write lock"
				: asked.structure();
		return new LockMisconfigurationException(key, "Could not acquire lock " + LockKeyQuoting.quote(key) + " as "
				+ askedFor + ": it is " + current.structure() + " now. " + fix);
	}

	/**
	 * Waits until a queued request is granted the key, its deadline passes or its thread
	 * is interrupted (its flag then set again); one that gives up leaves the line, and a
	 * grant it was given in the meantime goes to the next one.
	 * @return the claimed grant, or null if given up
	 */
	@Nullable Grant await(LockRequest request, long deadlineNanos) {
		this.mutex.lock();
		try {
			LockLine line = this.lines.get(request.key());
			try {
				Grant grant = awaitGrant(request, line, deadlineNanos);
				if (grant != null) {
					return grant;
				}
			}
			catch (RuntimeException ex) {
				// A request that failed to wait must not stay in line and be granted
				// a lock nobody claims.
				leave(request);
				throw ex;
			}
			leave(request);
			return null;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Waits under the mutex for the request's grant; null once its deadline passed or its
	 * thread was interrupted.
	 */
	private @Nullable Grant awaitGrant(LockRequest request, @Nullable LockLine line, long deadlineNanos) {
		while (line != null) {
			long now = System.nanoTime();
			line.settle(now, this.tokens);
			Grant grant = request.grant();
			if (grant != null) {
				grant.claim(now);
				line.alertFirst();
				return grant;
			}
			if (now - deadlineNanos >= 0) {
				break;
			}
			long sleep = deadlineNanos - now;
			if (line.isFirst(request)) {
				sleep = Math.max(1, Math.min(sleep, line.nanosUntilChange(now)));
			}
			try {
				request.wakeUp().awaitNanos(sleep);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		return null;
	}

	/**
	 * Ends a grant, if it still holds its key: the key goes to the first waiting request,
	 * unless a minimum hold keeps it until {@code keepUntilNanos}.
	 * @return whether the grant still held its key
	 */
	boolean release(Grant grant, long keepUntilNanos) {
		this.mutex.lock();
		try {
			LockLine line = this.lines.get(grant.key());
			if (line == null) {
				return false;
			}
			long now = System.nanoTime();
			boolean held = line.release(grant, keepUntilNanos, now);
			settleOrForget(grant.key(), line, now);
			return held;
		}
		finally {
			this.mutex.unlock();
		}
	}

	/**
	 * Sets a grant's fixed lease to run out the given time from now, if it still holds
	 * its key; the first waiter looks again at when the key may become free.
	 * @return whether the grant still held its key (its lease had not run out, and the
	 * table had not taken the key back)
	 */
	boolean extend(Grant grant, Duration leaseTime) {
		this.mutex.lock();
		try {
			LockLine line = this.lines.get(grant.key());
			long now = System.nanoTime();
			if (line != null) {
				line.settle(now, this.tokens);
			}
			if (line == null || grant.isLost(now)) {
				return false;
			}
			grant.extend(now, leaseTime);
			line.alertFirst();
			return true;
		}
		finally {
			this.mutex.unlock();
		}
	}

	private void leave(LockRequest request) {
		LockLine line = this.lines.get(request.key());
		if (line != null) {
			line.leave(request);
			settleOrForget(request.key(), line, System.nanoTime());
		}
	}

	/**
	 * After a change of holder or line: the first waiter looks again, or the key goes.
	 */
	private void settleOrForget(String key, LockLine line, long now) {
		line.settle(now, this.tokens);
		line.alertFirst();
		if (line.isFree()) {
			this.lines.remove(key);
		}
	}

	private void sweepIfGrown(long now) {
		if (this.lines.size() < this.sweepAtSize) {
			return;
		}
		for (Iterator<LockLine> each = this.lines.values().iterator(); each.hasNext();) {
			LockLine line = each.next();
			line.settle(now, this.tokens);
			if (line.isFree()) {
				each.remove();
			}
		}
		this.sweepAtSize = Math.max(MIN_SWEEP_SIZE, 2 * this.lines.size());
	}

}
