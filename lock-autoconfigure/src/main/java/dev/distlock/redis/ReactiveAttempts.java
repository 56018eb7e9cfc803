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

import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redis.messages.AsyncWait;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.wait.WaitTimings;

/**
 * The attempts of one reactive acquisition, the non-blocking counterpart of
 * {@link LockAttempts}: one owner token, attempts on the reactive commands, and between
 * them the {@link AsyncWait}'s pause, which a hand-over message ends early; a hand-over
 * is accepted only while it can still be valid ({@link HandOverCheck}). Each step is a
 * new subscription ({@code repeatWhenEmpty}), never a nested call. An acquisition that
 * gives up, fails or is cancelled after an attempt leaves the lock's queue, and releases
 * a lock handed over meanwhile or taken by an attempt whose answer it never had, in the
 * background and on the reactive connection, behind its attempts: a release sent on
 * another connection could reach Redis before an attempt still on its way, which would
 * then take the lock for a whole lease with nobody to release it.
 */
final class ReactiveAttempts {

	private final ReactiveLockCommands commands;

	private final QueueExit exit;

	private final HandOverCheck handOvers;

	private final String key;

	private final String token;

	private final long leaseMillis;

	private final LockOptions options;

	private long lastAttemptNanos;

	private boolean mayBeQueued;

	private volatile boolean sent;

	ReactiveAttempts(ReactiveLockCommands commands, PendingReleases pending, String key, String token, long leaseMillis,
			LockOptions options) {
		this.commands = commands;
		this.exit = new QueueExit(pending, key, token, leaseMillis);
		this.handOvers = new HandOverCheck(commands.blocking(), leaseMillis);
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
		this.options = options;
	}

	String token() {
		return this.token;
	}

	/**
	 * Tries until acquired or the deadline passes.
	 * @param wait the acquisition's wait
	 * @param deadline when the caller gives up, by {@link System#nanoTime()}
	 * @param pausing told before each pause
	 * @return the grant, or empty if not acquired; errors with
	 * {@link LockUnavailableException} or {@link LockMisconfigurationException}
	 */
	Mono<Grant> acquire(AsyncWait wait, long deadline, Runnable pausing) {
		return Mono.defer(() -> step(wait, deadline, pausing))
			.repeatWhenEmpty((repeats) -> repeats)
			.flatMap(Mono::justOrEmpty)
			.doOnCancel(this::leaveInBackground);
	}

	/**
	 * One attempt and, if the lock is held, one pause: a grant, give up, or empty to go
	 * on.
	 */
	private Mono<Optional<Grant>> step(AsyncWait wait, long deadline, Runnable pausing) {
		boolean last = System.nanoTime() - deadline >= 0;
		return attempt(last ? null : wait.handOverChannel()).flatMap((reply) -> {
			if (reply instanceof AcquireReply.Granted granted) {
				Grant grant = new Grant(granted.fencingToken(), 1, this.lastAttemptNanos,
						Duration.ofMillis(this.leaseMillis));
				// A reply that came after the lease may have run out: the next attempt
				// finds out in Redis whether the lock is still ours; a last one lets it
				// go.
				return !grant.hasRunOut() ? Mono.just(Optional.of(grant)) : (last ? giveUp(true) : Mono.empty());
			}
			AcquireReply.Held held = (AcquireReply.Held) reply;
			this.handOvers.foundHeld(held, this.lastAttemptNanos);
			if (last || System.nanoTime() - deadline >= 0) {
				return giveUp(this.mayBeQueued);
			}
			pausing.run();
			return wait.pause(held.holderLeaseMillis(), deadline)
				.then(Mono.fromSupplier(() -> Optional.ofNullable(this.handOvers.accept(wait.takeHandOver()))))
				.filter(Optional::isPresent);
		});
	}

	private Mono<AcquireReply> attempt(@Nullable String handOverChannel) {
		this.lastAttemptNanos = System.nanoTime();
		boolean queuedBefore = this.mayBeQueued;
		this.mayBeQueued |= handOverChannel != null;
		this.sent = true;
		return this.commands
			.acquire(this.key, this.token, this.leaseMillis, handOverChannel, WaitTimings.QUEUE_ENTRY_TTL.toMillis(),
					queuedBefore)
			.onErrorMap(DataAccessException.class, (ex) -> {
				LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(this.key, "acquire", ex);
				if (misconfigured != null) {
					return misconfigured;
				}
				// The acquire may have been applied although its reply was lost.
				leaveInBackground();
				return this.commands.blocking().unavailable(this.key, this.options.name(), "acquire", ex);
			});
	}

	/**
	 * Gives up: leaves the queue (and lets go a lock that may be ours) if it must,
	 * waiting briefly (on a timer, not a thread) for Redis to have done so, and goes on
	 * on a parallel thread rather than the thread of the background releases.
	 */
	private Mono<Optional<Grant>> giveUp(boolean leave) {
		Mono<Optional<Grant>> none = Mono.just(Optional.empty());
		if (!leave) {
			return none;
		}
		return Mono.fromFuture(leaveInBackground(), true)
			.timeout(Duration.ofMillis(100))
			.onErrorResume((ex) -> Mono.empty())
			.publishOn(Schedulers.parallel())
			.then(none);
	}

	private CompletableFuture<Void> leaveInBackground() {
		return this.sent ? this.exit.inBackground() : CompletableFuture.completedFuture(null);
	}

}
