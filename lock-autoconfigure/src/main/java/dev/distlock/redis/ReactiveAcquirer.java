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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.dao.DataAccessException;

import dev.distlock.Deadlines;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.messages.AsyncWait;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.SharedTokens;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Acquires locks for reactive work, without blocking a thread: the non-blocking
 * counterpart of {@link LockAcquirer}, which it asks what is the same for both (the lease
 * of a call, and how a call that ends without the lock while Redis is in doubt fails),
 * with the same {@link Acquisition} deciding what its attempts' replies and hand-overs
 * mean. Between two attempts it pauses on its {@link AsyncWait}, which a hand-over
 * message ends early, listed among the client's waiting callers. Each step is a new
 * subscription ({@code repeatWhenEmpty}), never a nested call. The grant becomes a hold
 * that belongs to the work ({@link LockAcquirer#grantedToWork}).
 * <p>
 * An acquisition that gives up, fails or is cancelled after an attempt leaves the lock's
 * queue, and releases a lock handed over meanwhile or taken by an attempt whose answer it
 * never had, in the background and on the reactive connection, behind its attempts: a
 * release sent on another connection could reach Redis before an attempt still on its
 * way, which would then take the lock for a whole lease with nobody to release it.
 */
final class ReactiveAcquirer {

	/** How long an acquisition that gives up waits for Redis to have let it go. */
	private static final Duration LEAVE_WAIT = Duration.ofMillis(100);

	private final ReactiveLockCommands commands;

	private final LockAcquirer blocking;

	/**
	 * The background releases of acquisitions that end without the lock, on the reactive
	 * connection, after their attempts. (Releases of holds, which nothing can overtake,
	 * are retried on the blocking connection, which keeps working when only the reactive
	 * one is stuck.)
	 */
	private final PendingReleases pending;

	private final OwnerTokens tokens;

	private final WaitingAcquirers waiting;

	private final @Nullable ReleaseMessageWaiter releaseWaiter;

	private final LeaseExtension extension;

	private final LockEvents events;

	private final LockReleaser releaser;

	ReactiveAcquirer(ReactiveLockCommands commands, LockAcquirer blocking, PendingReleases pending, OwnerTokens tokens,
			WaitingAcquirers waiting, @Nullable ReleaseMessageWaiter releaseWaiter, LeaseExtension extension,
			LockEvents events, LockReleaser releaser) {
		this.commands = commands;
		this.blocking = blocking;
		this.pending = commands.pendingReleases(pending);
		this.tokens = tokens;
		this.waiting = waiting;
		this.releaseWaiter = releaseWaiter;
		this.extension = extension;
		this.events = events;
		this.releaser = releaser;
	}

	/**
	 * Acquires the Redis key for reactive work, waiting no longer than the options allow.
	 * @return the hold, or empty if not acquired in time
	 */
	Mono<ReactiveLockHandle> acquire(String key, LockOptions options) {
		return acquire(key, options, false);
	}

	/**
	 * Acquires the Redis key for reactive work, as {@link #acquire(String, LockOptions)}
	 * does, or fails.
	 * @return the hold; errors with {@link dev.distlock.LockNotAcquiredException} if not
	 * acquired in time, saying whether another held it or its grant came too late to
	 * trust
	 */
	Mono<ReactiveLockHandle> lock(String key, LockOptions options) {
		return acquire(key, options, true);
	}

	private Mono<ReactiveLockHandle> acquire(String key, LockOptions options, boolean failIfNotAcquired) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			Duration lease = this.blocking.leaseOf(options);
			this.commands.blocking().quarantine().checkLease(key, lease);
			Acquisition acquisition = new Acquisition(key, SharedTokens.of(options, this.tokens.next()),
					lease.toMillis(), this.commands.blocking().claimMillis(lease.toMillis()));
			long deadline = Deadlines.after(start, options.waitTime());
			return Mono
				.using(() -> beginWait(key, acquisition.token(), options),
						(wait) -> attempts(acquisition, options, wait, deadline), AsyncWait::close)
				.<ReactiveLockHandle>map((grant) -> new ReactiveRedisLockHandle(
						this.blocking.grantedToWork(key, acquisition.token(), grant, lease, options, start),
						this.releaser, this.extension, this.commands))
				.switchIfEmpty(Mono.defer(() -> notAcquired(key, options, start)))
				.switchIfEmpty(Mono.defer(() -> failIfNotAcquired
						? Mono.error(this.blocking.notAcquired(key, options, start, acquisition.lateGrant()))
						: Mono.empty()))
				.doOnError(LockUnavailableException.class, (ex) -> this.events.unavailable(key, options, start, ex))
				.doFinally((signal) -> {
					WaitingAcquirers.Waiting listed = acquisition.listedAsWaiting();
					if (listed != null) {
						this.waiting.stopped(listed);
					}
				});
		});
	}

	private AsyncWait beginWait(String key, String token, LockOptions options) {
		// A caller that does not wait never joins the queue, nor a sharded channel.
		ReleaseMessageWaiter messages = this.releaseWaiter;
		return (messages != null && !options.waitTime().isZero()) ? messages.beginAsync(key, token)
				: AsyncWait.backoffOnly();
	}

	/**
	 * Tries until acquired or the deadline passes.
	 * @return the grant, or empty if not acquired; errors with
	 * {@link LockUnavailableException} or {@link LockMisconfigurationException}
	 */
	private Mono<Grant> attempts(Acquisition acquisition, LockOptions options, AsyncWait wait, long deadline) {
		return Mono.defer(() -> step(acquisition, options, wait, deadline))
			.repeatWhenEmpty((repeats) -> repeats)
			.flatMap(Mono::justOrEmpty)
			.doOnCancel(() -> leaveInBackground(acquisition));
	}

	/**
	 * One attempt and, if the lock is held, one pause: a grant, give up, or empty to go
	 * on.
	 */
	private Mono<Optional<Grant>> step(Acquisition acquisition, LockOptions options, AsyncWait wait, long deadline) {
		boolean last = System.nanoTime() - deadline >= 0;
		return attempt(acquisition, options, last ? null : wait.handOverChannel()).flatMap((reply) -> {
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = acquisition.granted(granted);
				// A reply that came after the lease may have run out: the next attempt
				// finds out in Redis whether the lock is still ours; a last one lets it
				// go.
				return (grant != null) ? Mono.just(Optional.of(grant))
						: (last ? giveUp(acquisition, true) : Mono.empty());
			}
			AcquireReply.Held held = (AcquireReply.Held) reply;
			acquisition.foundHeld(held);
			if (last || System.nanoTime() - deadline >= 0) {
				return giveUp(acquisition, acquisition.mayBeQueued());
			}
			if (acquisition.listedAsWaiting() == null) {
				acquisition.listAsWaiting(this.waiting.started(acquisition.key(), options));
			}
			return wait.pause(held.holderLeaseMillis(), deadline)
				.then(Mono.fromSupplier(() -> Optional.ofNullable(acquisition.handedOver(wait.takeHandOver()))))
				.filter(Optional::isPresent);
		});
	}

	private Mono<AcquireReply> attempt(Acquisition acquisition, LockOptions options, @Nullable String handOverChannel) {
		boolean firstAttempt = !acquisition.attempted();
		boolean queuedBefore = acquisition.sending(handOverChannel, 1);
		String key = acquisition.key();
		return this.commands
			.acquire(key, acquisition.token(), acquisition.leaseMillis(), handOverChannel,
					WaitTimings.QUEUE_ENTRY_TTL.toMillis(), queuedBefore)
			.doOnNext((reply) -> {
				if (firstAttempt && reply.granted() && !options.isShared()) {
					// Free at the first attempt: the release may try the one-key script.
					this.commands.blocking().firstAttemptFoundFree(options.name());
				}
			})
			.onErrorMap(DataAccessException.class, (ex) -> {
				LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(key, "acquire", ex);
				if (misconfigured != null) {
					return misconfigured;
				}
				// The acquire may have been applied although its reply was lost.
				leaveInBackground(acquisition);
				return this.commands.blocking().unavailable(key, options.name(), "acquire", ex);
			});
	}

	/**
	 * Gives up: leaves the queue (and lets go a lock that may be ours) if it must,
	 * waiting briefly (on a timer, not a thread) for Redis to have done so, and goes on
	 * on a parallel thread rather than the thread of the background releases.
	 */
	private Mono<Optional<Grant>> giveUp(Acquisition acquisition, boolean leave) {
		Mono<Optional<Grant>> none = Mono.just(Optional.empty());
		if (!leave) {
			return none;
		}
		return Mono.fromFuture(leaveInBackground(acquisition), true)
			.timeout(LEAVE_WAIT)
			.onErrorResume((ex) -> Mono.empty())
			.publishOn(Schedulers.parallel())
			.then(none);
	}

	private CompletableFuture<Void> leaveInBackground(Acquisition acquisition) {
		return acquisition.attempted()
				? this.pending.release(acquisition.key(), acquisition.token(), acquisition.leaseEndNanos())
				: CompletableFuture.completedFuture(null);
	}

	/**
	 * Ends a call without the lock, as {@link LockAcquirer} does: unavailable if a call
	 * that waited has no recent answer from the lock's node and the node does not answer
	 * when asked once more, or if the node is in doubt.
	 */
	private Mono<ReactiveLockHandle> notAcquired(String key, LockOptions options, long start) {
		Mono<Void> answered = this.blocking.needsFreshAnswer(key, options)
				? this.commands.confirmAnswering(key)
					.onErrorMap(DataAccessException.class,
							(ex) -> this.commands.blocking().unavailable(key, options.name(), "acquire", ex))
				: Mono.empty();
		return answered.then(Mono.defer(() -> {
			LockUnavailableException inDoubt = this.blocking.endedInDoubt(key, options);
			if (inDoubt != null) {
				return Mono.error(inDoubt);
			}
			this.events.notAcquired(key, options, start);
			return Mono.empty();
		}));
	}

}
