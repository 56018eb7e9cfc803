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

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.ReleaseOutcome;

/**
 * Ends the holds of reactive work, without blocking: ends the hold, stops renewing it and
 * forgets it at once (so nothing renews it, or reports it lost, after its release), then
 * releases it in Redis with the owner-checked release script, which keeps it for the
 * minimum hold or hands it over to the next waiter in the lock's queue. A lease found
 * lost, or run out by the local count, is reported and signalled as a
 * {@link LockLeaseLostException}; a release that cannot reach Redis, or that its caller
 * cancels before Redis answered, is retried in the background (with what is left of the
 * minimum hold at each attempt), and signalled as a {@link LockUnavailableException}.
 */
final class ReactiveReleaser {

	private static final Log logger = LogFactory.getLog(ReactiveReleaser.class);

	private final ReactiveLockCommands commands;

	private final HoldServices services;

	ReactiveReleaser(ReactiveLockCommands commands, HoldServices services) {
		this.commands = commands;
		this.services = services;
	}

	/**
	 * Releases the hold; call once.
	 * @param hold the hold of the work
	 * @return completes when Redis released it
	 */
	Mono<Void> release(RedisLockHandle hold) {
		return Mono.defer(() -> {
			// Ended by this process's count before Redis is asked, as a blocking hold
			// is: a renewal or hand-over confirmation that Redis answers after this
			// release (the key already released or handed over) is then not taken for
			// a lost lease.
			hold.exit();
			this.services.renewer().unregister(hold);
			this.services.held().forget(hold);
			Duration heldFor = hold.heldFor();
			if (hold.isPastDeadline()) {
				this.services.events().leaseLost(hold, "its lease ran out before release, by this process's count");
			}
			long keep = hold.minimumHold().remainingMillis();
			return this.commands.release(hold.key(), hold.token(), keep)
				// A release cancelled before Redis answered is retried in the background.
				.doOnCancel(() -> retryInBackground(hold))
				.onErrorMap(DataAccessException.class, (ex) -> unconfirmed(hold, heldFor, ex))
				.flatMap((outcome) -> released(hold, heldFor, outcome, keep));
		});
	}

	private Mono<Void> released(RedisLockHandle hold, Duration heldFor, ReleaseOutcome outcome, long keep) {
		hold.markReleasedInRedis(System.nanoTime());
		if (!outcome.wasHeld()) {
			this.services.events().leaseLost(hold, "its key was gone or held by another owner on release");
		}
		this.services.events()
			.released(hold, heldFor, (outcome == ReleaseOutcome.KEPT_FOR_MIN_HOLD) ? outcome + " for " + keep + "ms"
					: outcome.toString());
		if (hold.isLeaseLost()) {
			return Mono.error(new LockLeaseLostException(hold.key(), hold.name(), hold.leaseTime(), heldFor));
		}
		return Mono.empty();
	}

	/**
	 * Ends the hold of a handle that became unreachable without being released: it is no
	 * longer renewed, and expires with its lease.
	 */
	void abandoned(RedisLockHandle hold) {
		hold.exit();
		this.services.renewer().unregister(hold);
		this.services.held().forget(hold);
		logger.warn("Stopped renewing lock " + LockKeyQuoting.quote(hold.key()) + ": its ReactiveLockHandle was "
				+ "discarded without being released; it expires with its lease. Release every handle, or use "
				+ "withLock, which releases however the work ends");
	}

	/**
	 * Retries the release, keeping the lock for what is left of the minimum hold at each
	 * attempt.
	 */
	private void retryInBackground(RedisLockHandle hold) {
		this.services.pending()
			.release(hold.key(), hold.token(), hold.minimumHold(), System.nanoTime() + hold.leaseTime().toNanos());
	}

	private RuntimeException unconfirmed(RedisLockHandle hold, Duration heldFor, DataAccessException ex) {
		this.services.events().released(hold, heldFor, "not confirmed by Redis, retried in the background");
		LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(hold.key(), "release", ex);
		if (misconfigured != null) {
			return misconfigured;
		}
		retryInBackground(hold);
		return this.services.commands().unavailable(hold.key(), hold.name(), LockUnavailableException.RELEASE, ex);
	}

}
