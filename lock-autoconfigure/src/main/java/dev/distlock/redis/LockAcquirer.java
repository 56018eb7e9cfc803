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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.distlock.Deadlines;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.cohort.Baton;
import dev.distlock.redis.cohort.Turn;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.redis.protocol.SharedTokens;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Acquires a lock for the calling thread, from start to end, in this order:
 * <ol>
 * <li>A key the thread already holds is re-entered at once ({@link HeldLocks}), with no
 * round trip and no observation. Any other acquisition runs inside an
 * {@link LockObservationDocumentation#ACQUISITION} observation, and a new hold is
 * observed from there until its release ({@link LockObservationDocumentation#HOLD}).</li>
 * <li>The thread takes its turn among the client's threads that want the same key
 * ({@link LocalCohort}), which either passes it the lock without Redis or lets it acquire
 * in Redis as the representative of the client. A shared hold (a reader, a writer, a
 * permit) skips the cohort: each is its own hold in Redis.</li>
 * <li>In Redis, the attempts of one owner token ({@link Acquisition} keeps what they
 * learn): a caller that may wait begins its {@link LockWaiter.Wait} before the first
 * attempt; if the wait gives a hand-over channel, a failed attempt also takes a place in
 * the lock's queue, and a release may then hand the lock over during the wait, with no
 * attempt of its own. Where replicas must acknowledge grants, a hand-over is taken by
 * another attempt, which confirms it with a write that {@code WAIT} can count, and a
 * grant that too few replicas acknowledged is released again at once.</li>
 * <li>The grant becomes a hold: registered ({@link HeldLocks}), renewed or its deadline
 * watched ({@link LeaseRenewer}), ended by the {@link LockReleaser} when its last hold is
 * released.</li>
 * </ol>
 * An acquirer that gives up leaves the queue, passing on a lock handed over in the
 * meantime, and waits briefly for Redis to have done so; an attempt whose outcome is
 * unknown leaves it in the background. A call that ends without the lock while the lock's
 * Redis node is in doubt (its last lock command failed, its commands stalled, or the
 * client is reconnecting to it), or that waited and has no recent answer from the node
 * that the node gives when asked once more, ends with a {@link LockUnavailableException}:
 * an outage is never reported as a lock that someone else holds.
 */
final class LockAcquirer {

	/** Why a call that ended without the lock while its node was in doubt failed. */
	static final String WAIT_ENDED_IN_DOUBT = "the call ended while the lock's Redis node was failing, "
			+ "unreachable or not answering lock commands";

	/**
	 * How long an acquirer that gives up waits for Redis to have taken it out of the
	 * queue.
	 */
	private static final long LEAVE_WAIT_MILLIS = 100;

	private final RedisLockCommands commands;

	private final PendingReleases pending;

	private final OwnerTokens tokens;

	private final HeldLocks held;

	private final LocalCohort local;

	private final WaitingAcquirers waiting;

	private final LockWaiter waiter;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final LockReleaser releaser;

	/** What extends the lease of a hold at its holder's request. */
	private final RedisLockHandle.Extension extension;

	/** What issues the fencing token of a hold acquired without one. */
	private final LazyFencingTokens fencingTokens;

	private final LockEvents events;

	private final Duration renewalLease;

	private final ObservationRegistry observationRegistry;

	LockAcquirer(RedisLockCommands commands, PendingReleases pending, OwnerTokens tokens, HeldLocks held,
			LocalCohort local, WaitingAcquirers waiting, LockWaiter waiter, LeaseRenewer<RedisLockHandle> renewer,
			LockReleaser releaser, RedisLockHandle.Extension extension, LazyFencingTokens fencingTokens,
			LockEvents events, Duration renewalLease, ObservationRegistry observationRegistry) {
		this.commands = commands;
		this.pending = pending;
		this.tokens = tokens;
		this.held = held;
		this.local = local;
		this.waiting = waiting;
		this.waiter = waiter;
		this.renewer = renewer;
		this.releaser = releaser;
		this.extension = extension;
		this.fencingTokens = fencingTokens;
		this.events = events;
		this.renewalLease = renewalLease;
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Acquires a key for the calling thread, as {@link #acquire} does, or throws.
	 * @throws LockNotAcquiredException if not acquired in time or interrupted
	 */
	LockHandle lock(String key, LockOptions options) {
		long start = System.nanoTime();
		AtomicReference<@Nullable Duration> lateGrant = new AtomicReference<>();
		LockHandle handle = acquire(key, options, start, lateGrant::set);
		if (handle == null) {
			throw notAcquired(key, options, start, lateGrant.get());
		}
		return handle;
	}

	/**
	 * Returns the exception of a call that ended without the lock: held by another, or
	 * granted too late to trust.
	 * @param lateGrant how long after its request the grant came, if it came too late and
	 * no later attempt found the lock held
	 */
	LockNotAcquiredException notAcquired(String key, LockOptions options, long start, @Nullable Duration lateGrant) {
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		return (lateGrant != null)
				? LockNotAcquiredException.grantedTooLate(key, options.name(), options.waitTime(), waited,
						leaseOf(options), lateGrant)
				: new LockNotAcquiredException(key, options.name(), options.waitTime(), waited);
	}

	/**
	 * Acquires a key for the calling thread, waiting no longer than the options allow.
	 * @param key the Redis key, including the client's key prefix
	 * @param options the options of the call
	 * @param start when the call began, by {@link System#nanoTime()}
	 * @return the hold, or null if not acquired in time or interrupted
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws LockLeaseLostException if the thread's hold of the key has lost its lease
	 */
	@Nullable LockHandle acquire(String key, LockOptions options, long start) {
		return acquire(key, options, start, (lateGrant) -> {
		});
	}

	/**
	 * Acquires a key for the calling thread, as
	 * {@link #acquire(String, LockOptions, long)} does, telling why a call that ends
	 * without the lock did not get it if its grant came too late to trust.
	 * @param lateGrant told how long after its request the grant came, if the call ends
	 * without the lock because it came too late and no later attempt found the lock held
	 */
	@Nullable LockHandle acquire(String key, LockOptions options, long start, Consumer<Duration> lateGrant) {
		LockHandle reentered = this.held.reenter(key, options);
		if (reentered != null) {
			return reentered;
		}
		RedisLockHandle handle;
		try {
			handle = LockObservationDocumentation.observeAcquisition(this.observationRegistry, key, options,
					() -> acquireNew(key, options, start, lateGrant));
		}
		catch (LockUnavailableException ex) {
			this.events.unavailable(key, options, start, ex);
			throw ex;
		}
		if (handle != null) {
			handle.observe(LockObservationDocumentation.HOLD.start(this.observationRegistry, key, options));
		}
		return handle;
	}

	private @Nullable RedisLockHandle acquireNew(String key, LockOptions options, long start,
			Consumer<Duration> lateGrant) {
		Duration lease = leaseOf(options);
		this.commands.quarantine().checkLease(key, lease);
		long deadline = Deadlines.after(start, options.waitTime());
		// Shared holds never pass between threads: each reader and permit is its own
		// hold.
		Turn turn = options.isShared() ? Turn.ACQUIRE_IN_REDIS : takeTurn(key, options, deadline);
		if (turn instanceof Turn.Passed passed) {
			RedisLockHandle handle = passed(key, passed.baton(), lease, options, start);
			if (!this.local.heldBy(handle)) {
				// The key was found gone between the pass and now: the holds of its
				// token, this one too, have lost it.
				handle.leaseLost("its key was gone from Redis when the lock passed to it");
			}
			else if (passed.confirmFirst()) {
				confirmLatePass(handle);
			}
			return handle;
		}
		RedisLockHandle handle = (turn instanceof Turn.AcquireInRedis)
				? acquireInRedis(key, options, lease, start, deadline, lateGrant) : null;
		if (handle == null) {
			checkRedisAnswered(key, options);
			this.events.notAcquired(key, options, start);
		}
		return handle;
	}

	/** Returns the lease of a call: its own, else that of auto-renewing holds. */
	Duration leaseOf(LockOptions options) {
		return (options.leaseTime() != null) ? options.leaseTime() : this.renewalLease;
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

	/**
	 * Has Redis confirm, before the hold begins, the owner token of a lock this thread
	 * took after the {@link LocalCohort#CONFIRMATION_WINDOW} (it was woken late): a key
	 * found gone marks the holds of the token lost, this one too, and ends the client's
	 * tenure; no answer marks this hold lost and ends the tenure as well, so that the
	 * lock is released in Redis, not passed on.
	 */
	private void confirmLatePass(RedisLockHandle handle) {
		try {
			this.renewer.confirmNow(handle);
		}
		catch (DataAccessException ex) {
			this.local.holdLost(handle);
			handle.leaseLost("Redis did not answer the confirmation of its owner token, "
					+ "which the lock passed to it late needed");
		}
	}

	private @Nullable RedisLockHandle acquireInRedis(String key, LockOptions options, Duration lease, long start,
			long deadline, Consumer<Duration> lateGrant) {
		Acquisition acquisition = new Acquisition(key, SharedTokens.of(options, this.tokens.next()), lease.toMillis(),
				this.commands.claimMillis(lease.toMillis()));
		RedisLockHandle handle = null;
		try {
			Grant grant = attempts(acquisition, options, deadline);
			if (grant != null) {
				handle = grantedInRedis(key, acquisition.token(), grant, lease, options, start);
				if (!options.isShared()) {
					this.local.acquiredInRedis(key, handle, grant.block());
				}
			}
			else {
				Duration late = acquisition.lateGrant();
				if (late != null) {
					lateGrant.accept(late);
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

	/**
	 * Tries until acquired or given up: a caller that does not wait makes one attempt;
	 * one that waits begins its wait first.
	 * @return the grant, or null if not acquired
	 * @throws LockUnavailableException if an attempt fails
	 * @throws LockMisconfigurationException if Redis refuses an attempt for a reason to
	 * fix
	 */
	private @Nullable Grant attempts(Acquisition acquisition, LockOptions options, long deadline) {
		if (System.nanoTime() - deadline >= 0) {
			AcquireReply reply = attempt(acquisition, options, null);
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = acquisition.granted(granted);
				if (grant != null) {
					return grant;
				}
				// The reply came too late to trust the lock: let it go.
				leave(acquisition);
			}
			return null;
		}
		LockWaiter.Wait wait = this.waiter.begin(acquisition.key(), acquisition.token());
		Grant grant = null;
		try {
			grant = attemptAndWait(acquisition, options, wait, deadline);
			return grant;
		}
		finally {
			wait.close(grant != null);
			WaitingAcquirers.Waiting listed = acquisition.listedAsWaiting();
			if (listed != null) {
				this.waiting.stopped(listed);
			}
		}
	}

	private @Nullable Grant attemptAndWait(Acquisition acquisition, LockOptions options, LockWaiter.Wait wait,
			long deadline) {
		while (true) {
			AcquireReply reply = attempt(acquisition, options, wait);
			if (reply == null) {
				break;
			}
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = acquisition.granted(granted);
				if (grant != null) {
					return grant;
				}
				// The reply came after the lease may have run out (a pause, a slow
				// network): the next attempt checks in Redis whether it is still ours.
				if (System.nanoTime() - deadline >= 0) {
					leave(acquisition);
					return null;
				}
				continue;
			}
			AcquireReply.Held held = (AcquireReply.Held) reply;
			acquisition.foundHeld(held);
			if (System.nanoTime() - deadline >= 0) {
				break;
			}
			// The first wait lists the caller as waiting: one that gets the lock at its
			// first attempt never was.
			if (acquisition.listedAsWaiting() == null) {
				acquisition.listAsWaiting(this.waiting.started(acquisition.key(), options));
			}
			if (!wait.await(held.holderLeaseMillis(), deadline)) {
				break;
			}
			Grant grant = acquisition.handedOver(wait.takeHandOver());
			if (grant != null && !this.commands.acknowledgement().isRequired()) {
				return grant;
			}
			// With replica acknowledgement, the next attempt confirms a hand-over in
			// Redis, and its grant is acknowledged like any other. None, void, or too
			// late to trust: the next attempt finds out in Redis whether it is still
			// ours.
		}
		if (acquisition.mayBeQueued()) {
			leave(acquisition);
		}
		return null;
	}

	/**
	 * Makes one attempt, one round trip: asks the cohort how large a block of fencing
	 * tokens to reserve, and tells Redis whether an earlier attempt may have queued the
	 * caller. An attempt whose outcome is unknown leaves the queue in the background.
	 * <p>
	 * The commands choose what to send ({@link RedisLockCommands#attempt}): the first
	 * attempt at a free exclusive lock that needs one fencing token is a plain
	 * {@code SET NX PX}, its token issued if its holder asks ({@link LazyFencingTokens}).
	 * @param wait the wait whose channel the attempt gives, to be told of a hand-over if
	 * the lock is held, or null to stay out of the lock's queue; a plain first attempt
	 * asks it for none
	 * @return the reply, or null if the thread is interrupted
	 * @throws LockUnavailableException if the attempt fails, or too few replicas
	 * acknowledged its grant
	 * @throws LockMisconfigurationException if Redis refuses the attempt for a reason to
	 * fix
	 */
	private @Nullable AcquireReply attempt(Acquisition acquisition, LockOptions options,
			LockWaiter.@Nullable Wait wait) {
		if (Thread.currentThread().isInterrupted()) {
			return null;
		}
		String key = acquisition.key();
		int block = options.isShared() ? 1 : this.local.tokensToReserve(key, options.isAutoRenewing());
		boolean firstAttempt = !acquisition.attempted();
		boolean queuedBefore = acquisition.sending(null, block);
		boolean acknowledged = this.commands.acknowledgement().isRequired();
		AcquireReply reply;
		try {
			reply = this.commands.attempt(key, options.name(), acquisition.token(), acquisition.leaseMillis(),
					() -> acquisition.queueingOn((wait != null) ? wait.handOverChannel() : null),
					WaitTimings.QUEUE_ENTRY_TTL.toMillis(), block, queuedBefore, firstAttempt);
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(key, "acquire", ex);
			if (misconfigured != null) {
				if (acknowledged) {
					// WAIT may have failed after the script granted the lock.
					leaveInBackground(acquisition);
				}
				throw misconfigured;
			}
			// The acquire may have been applied although its reply was lost: undo it once
			// Redis answers.
			leaveInBackground(acquisition);
			if (Thread.currentThread().isInterrupted()) {
				return null;
			}
			throw this.commands.unavailable(key, options.name(), "acquire", ex);
		}
		catch (RuntimeException ex) {
			if (!acknowledged) {
				throw ex;
			}
			leaveInBackground(acquisition);
			throw this.commands.unavailable(key, options.name(), "acquire", ex);
		}
		if (reply instanceof AcquireReply.Granted granted) {
			checkAcknowledged(acquisition, options, granted);
		}
		return reply;
	}

	/**
	 * Lets a grant go again, with the owner-checked release (which hands it to the next
	 * waiter), if fewer replicas acknowledged it than must.
	 */
	private void checkAcknowledged(Acquisition acquisition, LockOptions options, AcquireReply.Granted granted) {
		ReplicaAcknowledgement required = this.commands.acknowledgement();
		if (!required.isRequired() || granted.acknowledgedReplicas() >= required.replicas()) {
			return;
		}
		try {
			this.commands.release(acquisition.key(), acquisition.token(), 0);
		}
		catch (DataAccessException ex) {
			leaveInBackground(acquisition);
		}
		throw new ReplicaAcknowledgementException(acquisition.key(), options.name(), granted.acknowledgedReplicas(),
				required.replicas(), required.timeout());
	}

	/**
	 * Lets go of what the acquisition may have in Redis (its place in the lock's queue,
	 * and the lock itself if a release handed it over meanwhile or an attempt whose reply
	 * was lost took it), by its owner token, so it never touches anyone else's lock,
	 * retried in the background until Redis answers or the lease has surely run out.
	 */
	private CompletableFuture<Void> leaveInBackground(Acquisition acquisition) {
		return this.pending.release(acquisition.key(), acquisition.token(), acquisition.leaseEndNanos());
	}

	/**
	 * Leaves, waiting briefly for Redis to have done so: a holder that releases right
	 * after this acquirer gave up then no longer hands the lock over to it. An
	 * interrupted thread, or a Redis that does not answer in time, leaves it to the
	 * background.
	 */
	private void leave(Acquisition acquisition) {
		CompletableFuture<Void> left = leaveInBackground(acquisition);
		if (Thread.currentThread().isInterrupted()) {
			return;
		}
		try {
			left.get(LEAVE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Left to the background.
		}
	}

	/**
	 * Records a lock acquired in Redis, or handed over through its queue; a hand-over
	 * that Redis keeps only for its claim window is confirmed in the background if it
	 * lasts a third of the window, or at once if other threads of the client wait to be
	 * passed it and its client queued half the confirmation window ago or more, or too
	 * little of the claim is left to pass it on
	 * ({@link LocalCohort#passNeedsConfirmation}), so that the holder's method starts
	 * without waiting.
	 */
	RedisLockHandle grantedInRedis(String key, String token, Grant grant, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = new RedisLockHandle(this.releaser::lastHoldEnded, this.extension, this.fencingTokens,
				this.events, key, token, grant.fencingToken(), lease, options, grant.lease(lease), true);
		register(handle, startNanos,
				handle.isClaimOnly() && this.local.othersWaitFor(key) && this.local.passNeedsConfirmation(handle));
		return handle;
	}

	/**
	 * Records a lock acquired in Redis, or handed over through its queue, for reactive
	 * work: the hold belongs to no thread, and its release is the work's
	 * ({@link ReactiveRedisLockHandle}).
	 */
	RedisLockHandle grantedToWork(String key, String token, Grant grant, Duration lease, LockOptions options,
			long startNanos) {
		RedisLockHandle handle = new RedisLockHandle((released) -> {
		}, this.extension, this.fencingTokens, this.events, key, token, grant.fencingToken(), lease, options,
				grant.lease(lease), false);
		register(handle, startNanos, false);
		return handle;
	}

	/**
	 * Records a lock that another thread of the client passed on without Redis: the key
	 * keeps its owner token, and the lease counts from its last confirmed renewal (or,
	 * passed on a hand-over's claim, from the request that queued the client, and is
	 * confirmed if the hold lasts a third of what is left of it).
	 */
	RedisLockHandle passed(String key, Baton baton, Duration lease, LockOptions options, long startNanos) {
		RedisLockHandle handle = new RedisLockHandle(this.releaser::lastHoldEnded, this.extension, this.fencingTokens,
				this.events, key, baton.token(), baton.fencingToken(), lease, options, baton.lease(), true);
		register(handle, startNanos, false);
		return handle;
	}

	/**
	 * Registers a new hold ({@link HeldLocks}), has its lease renewed if it is
	 * auto-renewing (its deadline watched either way, so that a lease running out while
	 * held is reported when it does) and, if Redis keeps it only for a hand-over's claim
	 * window, confirmed in the background once it lasts a third of what is left of the
	 * window, or at once; and reports the acquisition.
	 * @param confirmNow whether a hold on a claim is to be confirmed at once
	 */
	private void register(RedisLockHandle handle, long startNanos, boolean confirmNow) {
		this.held.add(handle);
		boolean claimOnly = handle.isClaimOnly();
		this.renewer.register(handle, handle.isAutoRenewing(), claimOnly && !confirmNow);
		if (claimOnly && confirmNow) {
			this.renewer.confirm(handle);
		}
		this.events.acquired(handle, startNanos);
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
		if (!Thread.currentThread().isInterrupted() && needsFreshAnswer(key, options)) {
			try {
				this.commands.confirmAnswering(key);
			}
			catch (DataAccessException ex) {
				throw this.commands.unavailable(key, options.name(), "acquire", ex);
			}
		}
		LockUnavailableException inDoubt = endedInDoubt(key, options);
		if (inDoubt != null) {
			throw inDoubt;
		}
	}

	/**
	 * Whether a call that ends without the lock must first ask the lock's node whether it
	 * answers: it waited, and has no answer from the node to a recent command.
	 */
	boolean needsFreshAnswer(String key, LockOptions options) {
		return !options.waitTime().isZero() && this.commands.reachability().needsFreshAnswer(key);
	}

	/**
	 * Returns the exception of a call that ends without the lock while the lock's node is
	 * in doubt, or null if it is not.
	 */
	@Nullable LockUnavailableException endedInDoubt(String key, LockOptions options) {
		if (!this.commands.reachability().inDoubt(key)) {
			return null;
		}
		return this.commands.unavailable(key, options.name(), "acquire",
				new DataAccessResourceFailureException(WAIT_ENDED_IN_DOUBT));
	}

}
