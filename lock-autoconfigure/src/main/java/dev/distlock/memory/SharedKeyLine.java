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

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.Deadlines;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockKind;
import dev.distlock.LockMode;

/**
 * The state of a read-write lock or a semaphore in a {@link LockTable}: its holders, each
 * with a grant and a lease of its own, the minimum holds of released ones, and the
 * requests waiting for it. A read-write lock admits many readers or one writer, a
 * semaphore of N permits N holders of any kind. Waiting is first come, first served
 * across modes: a request is granted only once every request ahead of it was, so a writer
 * queued before a reader is served first, and as many requests from the head of the line
 * are granted at once as the key admits (all the readers up to the next writer, or the
 * free permits). A holder whose lease ran out no longer counts. Touched only under the
 * table's mutex.
 */
final class SharedKeyLine extends LockLine {

	private static final Log logger = LogFactory.getLog(SharedKeyLine.class);

	private final LockKind kind;

	private final List<Grant> holders = new ArrayList<>();

	private final List<KeptHold> kept = new ArrayList<>();

	SharedKeyLine(LockKind kind) {
		this.kind = kind;
	}

	@Override
	LockKind kind() {
		return this.kind;
	}

	@Override
	void settle(long nowNanos, FencingTokens tokens) {
		this.holders.removeIf((grant) -> takeBackIfRunOut(grant, nowNanos));
		this.kept.removeIf((hold) -> nowNanos - hold.untilNanos() >= 0);
		while (!this.waiting.isEmpty() && admits(this.waiting.peekFirst())) {
			LockRequest first = this.waiting.pollFirst();
			first.granted(grant(first, tokens));
		}
	}

	private static boolean takeBackIfRunOut(Grant grant, long nowNanos) {
		if (!grant.hasRunOut(nowNanos)) {
			return false;
		}
		if (grant.isAutoRenewing()) {
			logger.warn("Took back lock " + LockKeyQuoting.quote(grant.key()) + " (" + grant.mode()
					+ "): its holder thread " + grant.owner().getName() + " ended without releasing it");
		}
		grant.markLost();
		return true;
	}

	/** Whether the key admits the request beside its holders and minimum holds. */
	private boolean admits(LockRequest request) {
		int count = this.holders.size() + this.kept.size();
		if (!this.kind.isReadWrite()) {
			return count < this.kind.permits();
		}
		if (request.mode() == LockMode.WRITE) {
			return count == 0;
		}
		return this.holders.stream().noneMatch((grant) -> grant.mode() == LockMode.WRITE)
				&& this.kept.stream().noneMatch((hold) -> hold.mode() == LockMode.WRITE);
	}

	@Override
	boolean admitsNow(LockRequest request) {
		return this.waiting.isEmpty() && admits(request);
	}

	@Override
	boolean isFree() {
		return this.holders.isEmpty() && this.kept.isEmpty() && this.waiting.isEmpty();
	}

	@Override
	Grant grant(LockRequest request, FencingTokens tokens) {
		Grant grant = new Grant(request, tokens.next());
		this.holders.add(grant);
		return grant;
	}

	@Override
	boolean release(Grant grant, long keepUntilNanos, long nowNanos) {
		if (!this.holders.remove(grant)) {
			return false;
		}
		if (keepUntilNanos - nowNanos > 0) {
			this.kept.add(new KeptHold(grant.mode(), keepUntilNanos));
		}
		return true;
	}

	/**
	 * Returns the time until the first holder or minimum hold may end; grants not claimed
	 * yet are left out, their claim wakes the first waiter.
	 */
	@Override
	long nanosUntilChange(long nowNanos) {
		long soonest = Long.MAX_VALUE;
		for (Grant grant : this.holders) {
			if (grant.isClaimed()) {
				soonest = Math.min(soonest, grant.isAutoRenewing() ? Deadlines.nanos(grant.leaseTime())
						: grant.validUntilNanos() - nowNanos);
			}
		}
		for (KeptHold hold : this.kept) {
			soonest = Math.min(soonest, hold.untilNanos() - nowNanos);
		}
		return soonest;
	}

	/** A released hold that keeps its place until its minimum hold ends. */
	private record KeptHold(LockMode mode, long untilNanos) {

	}

	@Override
	boolean takeBack(Grant unused) {
		return this.holders.remove(unused);
	}

}
