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

package dev.distlock.redis;

import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.lease.RenewalListener;

/**
 * Turns what renewal finds out into the client's events: a lease that ran out, a token
 * that no longer holds its key (for every hold that shares it), a holder that died, a
 * round that ended. A lease or token lost also ends the client's tenure of the lock
 * ({@link LocalCohort#holdLost}), before the holds are marked, so that no thread of the
 * client takes it without Redis from then on.
 */
final class RenewalReports implements RenewalListener<RedisLockHandle> {

	private final LockEvents events;

	private final HeldLocks held;

	private final LocalCohort cohort;

	RenewalReports(LockEvents events, HeldLocks held, LocalCohort cohort) {
		this.events = events;
		this.held = held;
		this.cohort = cohort;
	}

	@Override
	public void leaseLost(RedisLockHandle hold, String reason) {
		this.cohort.holdLost(hold);
		hold.leaseLost(reason);
	}

	/**
	 * Ends the client's tenure of the token, then marks the holds of the token lost: the
	 * ones still going, and the hold told of it even though it has ended if the lock was
	 * passing between threads then (no hold still going had it, and the thread passed it
	 * goes to Redis without one), so that the client is told of the loss either way.
	 */
	@Override
	public void tokenLost(RedisLockHandle hold, String reason) {
		boolean whilePassing = this.cohort.holdLost(hold);
		this.held.tokenLost(hold, reason, whilePassing);
	}

	@Override
	public void holderDied(RedisLockHandle hold) {
		this.events.holderDied(hold.key(), hold.owner());
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		this.events.renewed(renewed, roundTrips);
	}

}
