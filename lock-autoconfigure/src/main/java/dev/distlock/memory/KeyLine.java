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

import java.util.Deque;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.distlock.Deadlines;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockKind;
import dev.distlock.LockMode;

/**
 * The state of one key in a {@link LockTable}: its grant, the time a released grant keeps
 * it for its minimum hold, and the requests waiting for it, first come, first served. A
 * key that becomes free goes to the first waiting request at once, whether a release
 * freed it or a lease was found run out, so no later arrival can take it ahead of a
 * waiter. Only the first waiting request needs to wake when the key may become free
 * without a release ({@link #nanosUntilChange}); the others sleep until they are granted
 * the key, first in line, or out of time. Touched only under the table's mutex.
 */
final class KeyLine extends LockLine {

	private static final Log logger = LogFactory.getLog(KeyLine.class);

	private @Nullable Grant holder;

	private boolean kept;

	private long keptUntilNanos;

	private static final LockKind EXCLUSIVE = new LockKind(LockMode.EXCLUSIVE, 1);

	@Override
	LockKind kind() {
		return EXCLUSIVE;
	}

	/**
	 * Brings the key up to date: takes it back from a grant that ran out, ends a minimum
	 * hold that is over, and grants a free key to the first waiting request.
	 */
	@Override
	void settle(long nowNanos, FencingTokens tokens) {
		Grant current = this.holder;
		if (current != null && current.hasRunOut(nowNanos)) {
			if (current.isAutoRenewing()) {
				logger.warn("Took back lock " + LockKeyQuoting.quote(current.key()) + ": its holder thread "
						+ current.owner().getName() + " ended without releasing it");
			}
			current.markLost();
			this.holder = null;
		}
		if (this.kept && nowNanos - this.keptUntilNanos >= 0) {
			this.kept = false;
		}
		if (this.holder == null && !this.kept) {
			LockRequest first = this.waiting.pollFirst();
			if (first != null) {
				first.granted(grant(first, tokens));
			}
		}
	}

	@Override
	boolean admitsNow(LockRequest request) {
		return isFree();
	}

	/**
	 * Whether the key can be granted now, or forgotten: nobody holds or keeps it, and
	 * nobody waits.
	 */
	@Override
	boolean isFree() {
		return this.holder == null && !this.kept && this.waiting.isEmpty();
	}

	/** Grants the key to a request, which claims it when its thread takes it up. */
	@Override
	Grant grant(LockRequest request, FencingTokens tokens) {
		Grant grant = new Grant(request, tokens.next());
		this.holder = grant;
		return grant;
	}

	/**
	 * Ends a grant, if it still holds the key: the key stays kept until the end of its
	 * minimum hold, or becomes free.
	 * @param keepUntilNanos the end of the grant's minimum hold
	 * @return whether the grant still held the key
	 */
	@Override
	boolean release(Grant grant, long keepUntilNanos, long nowNanos) {
		if (this.holder != grant) {
			return false;
		}
		this.holder = null;
		if (keepUntilNanos - nowNanos > 0) {
			this.kept = true;
			this.keptUntilNanos = keepUntilNanos;
		}
		return true;
	}

	/**
	 * Returns how long the first waiter may sleep before the key can become free without
	 * a release: until a fixed lease or a minimum hold ends, or, for an auto-renewing
	 * lease, one lease, after which it checks whether the holder thread has ended. A
	 * grant not claimed yet has no end; its claim wakes the first waiter.
	 */
	@Override
	long nanosUntilChange(long nowNanos) {
		Grant current = this.holder;
		if (current != null) {
			if (!current.isClaimed()) {
				return Long.MAX_VALUE;
			}
			return current.isAutoRenewing() ? Deadlines.nanos(current.leaseTime())
					: current.validUntilNanos() - nowNanos;
		}
		return this.kept ? this.keptUntilNanos - nowNanos : Long.MAX_VALUE;
	}

	@Override
	boolean takeBack(Grant unused) {
		if (this.holder != unused) {
			return false;
		}
		this.holder = null;
		return true;
	}

}
