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

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.distlock.Deadlines;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.cohort.Turn;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.SharedTokens;
import dev.distlock.redis.wait.LockWaiter;

/**
 * Acquires a lock for the calling thread: takes its turn among the client's threads that
 * want the same key ({@link LocalCohort}), which either passes it the lock without Redis
 * or lets it acquire in Redis as the representative of the client ({@link LockAttempts}),
 * and records the grant ({@link LockGrants}). A shared hold (a reader, a writer, a
 * permit) skips the cohort and acquires in Redis with an owner token of its kind. A call
 * that ends without the lock while the lock's Redis node is in doubt (its last lock
 * command failed, its commands stalled, or the client is reconnecting to it) ends with a
 * {@link LockUnavailableException}, whether it waited in Redis's queue or behind another
 * thread of the client: an outage is never reported as a lock that someone else holds.
 */
final class LockAcquirer {

	/** Why a call that ended without the lock while its node was in doubt failed. */
	static final String WAIT_ENDED_IN_DOUBT = "the call ended while the lock's Redis node was failing, "
			+ "unreachable or not answering lock commands";

	private final AcquisitionServices services;

	private final LockWaiter waiter;

	private final LockGrants grants;

	private final LockEvents events;

	private final Duration renewalLease;

	private final LocalCohort local;

	private final WaitingAcquirers waiting;

	private final OwnerTokens tokens;

	LockAcquirer(AcquisitionServices services, LockWaiter waiter, LockGrants grants, LockEvents events,
			Duration renewalLease, OwnerTokens tokens) {
		this.services = services;
		this.waiter = waiter;
		this.grants = grants;
		this.events = events;
		this.renewalLease = renewalLease;
		this.local = services.cohort();
		this.waiting = services.waiting();
		this.tokens = tokens;
	}

	/**
	 * Acquires the key, waiting no longer than the options allow.
	 * @return the new hold, or null if not acquired in time or interrupted
	 */
	@Nullable RedisLockHandle acquire(String key, LockOptions options, long start) {
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.renewalLease;
		this.services.commands().quarantine().checkLease(key, lease);
		long deadline = Deadlines.after(start, options.waitTime());
		// Shared holds never pass between threads: each reader and permit is its own
		// hold.
		Turn turn = options.isShared() ? Turn.ACQUIRE_IN_REDIS : takeTurn(key, options, deadline);
		if (turn instanceof Turn.Passed passed) {
			RedisLockHandle handle = this.grants.passed(key, passed.baton(), lease, options, start);
			if (!this.local.heldBy(handle)) {
				// The key was found gone between the pass and now: the holds of its
				// token,
				// this one too, have lost it.
				this.events.leaseLost(handle, "its key was gone from Redis when the lock passed to it");
			}
			else if (passed.confirmFirst()) {
				confirmLatePass(handle);
			}
			return handle;
		}
		RedisLockHandle handle = (turn instanceof Turn.AcquireInRedis)
				? acquireInRedis(key, options, lease, start, deadline) : null;
		if (handle == null) {
			checkRedisAnswered(key, options);
			this.events.notAcquired(key, options, start);
		}
		return handle;
	}

	/**
	 * Makes sure that a call that ends without the lock ends so because the lock is held
	 * elsewhere, not because of Redis: the lock's node must not be in doubt, and a call
	 * that waited needs an answer from the node to a command sent in the last
	 * {@link RedisReachability#RECENT_ANSWER_NANOS}, or asks it once more. A connection
	 * lost just before the deadline is told by Lettuce's events only later, and a thread
	 * that waited behind another of its process sent nothing itself.
	 * @throws LockUnavailableException if the node is in doubt or does not answer
	 */
	private void checkRedisAnswered(String key, LockOptions options) {
		RedisReachability reachability = this.services.commands().reachability();
		if (!options.waitTime().isZero() && !Thread.currentThread().isInterrupted()
				&& reachability.needsFreshAnswer(key)) {
			try {
				this.services.commands().confirmAnswering(key);
			}
			catch (DataAccessException ex) {
				throw this.services.commands().unavailable(key, options.name(), "acquire", ex);
			}
		}
		if (reachability.inDoubt(key)) {
			throw this.services.commands()
				.unavailable(key, options.name(), "acquire",
						new DataAccessResourceFailureException(WAIT_ENDED_IN_DOUBT));
		}
	}

	/**
	 * Has Redis confirm, before the hold begins, the owner token of a lock this thread
	 * took after the {@link LocalCohort#CONFIRMATION_WINDOW} (it was woken late): a key
	 * found gone marks the holds of the token lost, this one too, and ends the client's
	 * tenure; no answer marks this hold lost and ends the tenure as well, so that the
	 * lock is released in Redis, not passed on.
	 */
	private void confirmLatePass(RedisLockHandle handle) {
		try {
			this.grants.confirmNow(handle);
		}
		catch (DataAccessException ex) {
			this.local.holdLost(handle);
			this.events.leaseLost(handle, "Redis did not answer the confirmation of its owner token, "
					+ "which the lock passed to it late needed");
		}
	}

	private Turn takeTurn(String key, LockOptions options, long deadline) {
		Turn turn = this.local.enter(key, options.isAutoRenewing(), deadline);
		if (!(turn instanceof Turn.Queued queued)) {
			return turn;
		}
		WaitingAcquirers.Waiting waitingHere = this.waiting.started(key, options);
		try {
			return this.local.awaitTurn(queued, deadline);
		}
		finally {
			this.waiting.stopped(waitingHere);
		}
	}

	private @Nullable RedisLockHandle acquireInRedis(String key, LockOptions options, Duration lease, long start,
			long deadline) {
		LockAttempts attempts = new LockAttempts(this.services, key, SharedTokens.of(options, this.tokens.next()),
				lease.toMillis(), options);
		RedisLockHandle handle = null;
		try {
			Grant grant = attempts.acquire(this.waiter, deadline);
			if (grant != null) {
				handle = this.grants.grantedInRedis(key, attempts.token(), grant, lease, options, start);
				if (!options.isShared()) {
					this.local.acquiredInRedis(key, handle, grant.block());
				}
			}
			return handle;
		}
		finally {
			if (handle == null && !options.isShared()) {
				this.local.representativeGaveUp(key);
			}
		}
	}

}
