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
import java.util.concurrent.atomic.AtomicReference;

import reactor.core.publisher.Mono;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.distlock.Deadlines;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.messages.AsyncWait;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.protocol.SharedTokens;

/**
 * Acquires locks for reactive work: runs one acquisition's {@link ReactiveAttempts} with
 * its {@link AsyncWait}, lists it among the client's waiting callers while it pauses,
 * turns the grant into a hold that belongs to the work ({@link LockGrants#grantedToWork})
 * and reports the outcome. A wait that ends without the lock while the lock's Redis node
 * is in doubt ends with a {@link LockUnavailableException}, as a blocking one does.
 */
final class ReactiveAcquirer {

	private final ReactiveLockCommands commands;

	private final HoldServices services;

	private final ReactiveReleaser releaser;

	/**
	 * The background releases of acquisitions that end without the lock, on the reactive
	 * connection, after their attempts. (Releases of holds, which nothing can overtake,
	 * are retried on the blocking connection, which keeps working when only the reactive
	 * one is stuck.)
	 */
	private final PendingReleases pending;

	ReactiveAcquirer(ReactiveLockCommands commands, HoldServices services) {
		this.commands = commands;
		this.services = services;
		this.pending = commands.pendingReleases(services.pending());
		this.releaser = new ReactiveReleaser(commands, services);
	}

	/**
	 * Acquires the Redis key for reactive work, waiting no longer than the options allow.
	 * @return the hold, or empty if not acquired in time
	 */
	Mono<ReactiveLockHandle> acquire(String redisKey, LockOptions options) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.services.renewalLease();
			this.services.commands().quarantine().checkLease(redisKey, lease);
			ReactiveAttempts attempts = new ReactiveAttempts(this.commands, this.pending, redisKey,
					SharedTokens.of(options, this.services.tokens().next()), lease.toMillis(), options);
			AtomicReference<WaitingAcquirers.Waiting> listed = new AtomicReference<>();
			return Mono
				.using(() -> beginWait(redisKey, attempts.token(), options),
						(wait) -> attempts.acquire(wait, Deadlines.after(start, options.waitTime()),
								() -> listOnce(listed, redisKey, options)),
						(wait) -> wait.close())
				.<ReactiveLockHandle>map((grant) -> new ReactiveRedisLockHandle(
						this.services.grants().grantedToWork(redisKey, attempts.token(), grant, lease, options, start),
						this.releaser, this.commands))
				.switchIfEmpty(Mono.defer(() -> notAcquired(redisKey, options, start)))
				.doOnError(LockUnavailableException.class,
						(ex) -> this.services.events().unavailable(redisKey, options, start, ex))
				.doFinally((signal) -> {
					WaitingAcquirers.Waiting waiting = listed.get();
					if (waiting != null) {
						this.services.waiting().stopped(waiting);
					}
				});
		});
	}

	private void listOnce(AtomicReference<WaitingAcquirers.Waiting> listed, String redisKey, LockOptions options) {
		if (listed.get() == null) {
			listed.set(this.services.waiting().started(redisKey, options));
		}
	}

	private AsyncWait beginWait(String redisKey, String token, LockOptions options) {
		// A caller that does not wait never joins the queue, nor a sharded channel.
		ReleaseMessageWaiter messages = this.services.releaseWaiter();
		return (messages != null && !options.waitTime().isZero()) ? messages.beginAsync(redisKey, token)
				: AsyncWait.backoffOnly();
	}

	/**
	 * Ends a call without the lock, as {@code LockAcquirer} does: unavailable if the
	 * lock's node is in doubt, or if a call that waited has no recent answer from it and
	 * the node does not answer when asked once more.
	 */
	private Mono<ReactiveLockHandle> notAcquired(String redisKey, LockOptions options, long start) {
		RedisReachability reachability = this.services.commands().reachability();
		Mono<Void> answered = (!options.waitTime().isZero() && reachability.needsFreshAnswer(redisKey))
				? this.commands.confirmAnswering(redisKey)
					.onErrorMap(DataAccessException.class,
							(ex) -> this.services.commands().unavailable(redisKey, options.name(), "acquire", ex))
				: Mono.empty();
		return answered.then(Mono.defer(() -> {
			if (reachability.inDoubt(redisKey)) {
				return Mono.error(this.services.commands()
					.unavailable(redisKey, options.name(), "acquire",
							new DataAccessResourceFailureException(LockAcquirer.WAIT_ENDED_IN_DOUBT)));
			}
			this.services.events().notAcquired(redisKey, options, start);
			return Mono.empty();
		}));
	}

}
