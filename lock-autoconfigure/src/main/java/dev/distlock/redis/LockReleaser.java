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
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.util.Assert;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.ReleaseOutcome;

/**
 * Ends the holds of a client, blocking and reactive ({@link ReactiveRedisLockHandle}
 * sends its release without blocking, and leaves the rest to this class): passes the lock
 * to the next thread of the client that waits for it ({@link LocalCohort}), having Redis
 * confirm the owner token first when its last confirmation is older than
 * {@link LocalCohort#CONFIRMATION_WINDOW} (one round trip, on the releasing thread), or
 * again in the background when it is half that old; or releases it in Redis, which keeps
 * it for the minimum hold or hands it over to the next waiter in the lock's queue;
 * reports a lease found lost on release, including one whose local validity ran out
 * although Redis still had the key; and ends holds by force for the actuator. A release
 * that cannot reach Redis is retried in the background until Redis answers (the caller
 * gets its exception at once), so that a live holder never strands its lock for a whole
 * lease, keeping it for what is left of the minimum hold at each attempt; a hold given
 * back unused (a call on several keys that did not get them all) is released there from
 * the start, so that its caller is not held up by a Redis that stopped answering.
 */
final class LockReleaser {

	private static final Log logger = LogFactory.getLog(LockReleaser.class);

	private final RedisLockCommands commands;

	private final LockEvents events;

	private final HeldLocks held;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final LocalCohort local;

	private final PendingReleases pending;

	LockReleaser(RedisLockCommands commands, LockEvents events, HeldLocks held, LeaseRenewer<RedisLockHandle> renewer,
			LocalCohort local, PendingReleases pending) {
		this.commands = commands;
		this.events = events;
		this.held = held;
		this.renewer = renewer;
		this.local = local;
		this.pending = pending;
	}

	/**
	 * Ends a hold whose last (outer) hold was released: passes it on, or releases it in
	 * Redis.
	 * @param handle the hold
	 */
	void lastHoldEnded(RedisLockHandle handle) {
		Duration heldFor = forgetEnded(handle);
		if (!handle.isShared() && passOn(handle, heldFor)) {
			this.events.released(handle, heldFor, "passed to the next thread of this client waiting for it");
			return;
		}
		try {
			if (handle.isGivenBack()) {
				releaseInBackground(handle, heldFor);
			}
			else {
				releaseInRedis(handle, heldFor);
			}
		}
		finally {
			if (!handle.isShared()) {
				this.local.releasedInRedis(handle);
			}
		}
	}

	/**
	 * Stops renewing and forgets a hold that ended, before Redis is asked to release it
	 * (a renewal or hand-over confirmation that Redis answers after the release, the key
	 * already released or handed over, is then not taken for a lost lease), and reports a
	 * lease that ran out before the release by this process's count.
	 * @param handle the hold, ended already
	 * @return how long it was held
	 */
	Duration forgetEnded(RedisLockHandle handle) {
		forget(handle);
		Duration heldFor = handle.heldFor();
		if (handle.isPastDeadline()) {
			handle.leaseLost("its lease ran out before release, by this process's count");
		}
		return heldFor;
	}

	/**
	 * Passes the lock to the next thread of the client waiting for it, if it may; a
	 * confirmation of the owner token that the pass needs first is sent on this thread,
	 * one that it asks for after the pass in the background. A confirmation that finds
	 * the key gone marks the holds of the token lost, and the lock is released in Redis
	 * instead (which reports the loss to this holder); one that gets no answer leaves the
	 * release to the background, as a release that gets none.
	 * @return whether the lock passed on
	 */
	private boolean passOn(RedisLockHandle handle, Duration heldFor) {
		LocalCohort.Pass pass = this.local.passOn(handle);
		if (pass == LocalCohort.Pass.CONFIRM_FIRST) {
			pass = confirmedNow(handle, heldFor) ? this.local.passOn(handle) : LocalCohort.Pass.RELEASE_IN_REDIS;
		}
		if (pass == LocalCohort.Pass.PASSED_CONFIRM_AGAIN) {
			this.renewer.confirmSoon(handle);
		}
		return pass == LocalCohort.Pass.PASSED || pass == LocalCohort.Pass.PASSED_CONFIRM_AGAIN;
	}

	/**
	 * Has Redis confirm on this thread that the key still holds the hold's owner token.
	 * @return whether it does
	 * @throws LockUnavailableException if Redis did not answer: the lock is released in
	 * the background
	 */
	private boolean confirmedNow(RedisLockHandle handle, Duration heldFor) {
		try {
			return this.renewer.confirmNow(handle);
		}
		catch (DataAccessException ex) {
			try {
				throw releaseLater(handle, heldFor, ex);
			}
			finally {
				this.local.releasedInRedis(handle);
			}
		}
	}

	/**
	 * Releases a hold given back unused in the background, by its owner token, retried
	 * until Redis answers or its lease has surely run out (the work never ran, so no
	 * minimum hold applies); the caller waits for it only briefly, if at all
	 * ({@link MultiKeyAcquirer}).
	 */
	private void releaseInBackground(RedisLockHandle handle, Duration heldFor) {
		handle.releasingInBackground(
				this.pending.release(handle.key(), handle.token(), System.nanoTime() + handle.leaseTime().toNanos()));
		this.events.released(handle, heldFor, "given back unused, released in Redis in the background");
	}

	private void releaseInRedis(RedisLockHandle handle, Duration heldFor) {
		long keep = handle.minimumHold().remainingMillis();
		ReleaseOutcome outcome;
		try {
			outcome = this.commands.release(handle.key(), handle.name(), handle.token(), keep);
		}
		catch (DataAccessException ex) {
			throw releaseLater(handle, heldFor, ex);
		}
		catch (ReplicaAcknowledgementException ex) {
			// Kept for the minimum hold on the master, but not acknowledged by enough
			// replicas: released all the same, and the caller is told.
			handle.markReleasedInRedis(System.nanoTime());
			this.events.released(handle, heldFor, "kept for " + keep + "ms, not acknowledged by enough replicas");
			throw ex;
		}
		LockLeaseLostException lost = releasedInRedis(handle, heldFor, outcome, keep);
		if (lost != null) {
			throw lost;
		}
	}

	/**
	 * Reports what a release in Redis did.
	 * @param handle the hold released
	 * @param heldFor how long it was held
	 * @param outcome what the release did
	 * @param keep how long the release was asked to keep the lock for the minimum hold
	 * @return the exception for the holder if its lease was lost, else null
	 */
	@Nullable LockLeaseLostException releasedInRedis(RedisLockHandle handle, Duration heldFor, ReleaseOutcome outcome,
			long keep) {
		handle.markReleasedInRedis(System.nanoTime());
		if (!outcome.wasHeld()) {
			handle.leaseLost("its key was gone or held by another owner on release");
		}
		this.events.released(handle, heldFor,
				(outcome == ReleaseOutcome.KEPT_FOR_MIN_HOLD) ? outcome + " for " + keep + "ms" : outcome.toString());
		return handle.isLeaseLost()
				? new LockLeaseLostException(handle.key(), handle.name(), handle.leaseTime(), handle.heldFor()) : null;
	}

	/**
	 * Ends the holds of a key whatever their thread: releases the key if one of them
	 * still holds it (handing it over to the next waiter, if any), stops renewing them
	 * and marks their leases lost, so that their holders get a
	 * {@link LockLeaseLostException} when they release.
	 * @return whether there were any
	 * @throws IllegalArgumentException if the key is blank
	 */
	boolean forceRelease(String key) {
		Assert.hasText(key, "Lock key must not be blank");
		List<RedisLockHandle> handles = this.held.held(key);
		for (RedisLockHandle handle : handles) {
			forget(handle);
			try {
				this.commands.release(key, handle.token(), 0);
			}
			catch (DataAccessException ex) {
				throw this.commands.unavailable(key, LockOptions.UNNAMED, "force-release", ex);
			}
			if (!handle.isShared()) {
				this.local.releasedInRedis(handle);
			}
			handle.leaseLost("it was force-released");
		}
		return !handles.isEmpty();
	}

	/**
	 * Leaves the release of a hold that Redis did not answer to the background.
	 * @return the exception to throw to the holder
	 */
	RuntimeException releaseLater(RedisLockHandle handle, Duration heldFor, DataAccessException ex) {
		this.events.released(handle, heldFor, "not confirmed by Redis, retried in the background");
		LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(handle.key(), "release", ex);
		if (misconfigured != null) {
			return misconfigured;
		}
		retryInBackground(handle);
		return this.commands.unavailable(handle.key(), handle.name(), LockUnavailableException.RELEASE, ex);
	}

	/**
	 * Retries the release of a hold in the background, with what is left of the minimum
	 * hold at each attempt: another caller must not get the lock sooner because the first
	 * release was lost or cancelled.
	 */
	void retryInBackground(RedisLockHandle handle) {
		this.pending.release(handle.key(), handle.token(), handle.minimumHold(),
				System.nanoTime() + handle.leaseTime().toNanos());
	}

	/**
	 * Ends the hold of reactive work whose handle became unreachable without being
	 * released: it is no longer renewed, and expires with its lease.
	 */
	void abandoned(RedisLockHandle handle) {
		handle.exit();
		forget(handle);
		logger.warn("Stopped renewing lock " + LockKeyQuoting.quote(handle.key()) + ": its ReactiveLockHandle was "
				+ "discarded without being released; it expires with its lease. Release every handle, or use "
				+ "withLock, which releases however the work ends");
	}

	private void forget(RedisLockHandle handle) {
		this.renewer.unregister(handle);
		this.held.forget(handle);
	}

}
