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

package dev.distlock.redis.protocol;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The lock's acquire and release commands on Spring Data Redis's reactive API, for
 * callers that must not block a thread: the same scripts, keys and arguments as
 * {@link RedisLockCommands}, one round trip each, recorded in the same
 * {@link RedisReachability} (a command cancelled before its answer says nothing about
 * Redis). Failures are signalled as Spring's {@code DataAccessException}s.
 */
public final class ReactiveLockCommands {

	/**
	 * How long a background release on the reactive connection is given at most to be
	 * answered: Lettuce's default command timeout, for a connection built without one.
	 */
	private static final Duration LONGEST_BACKGROUND_WAIT = Duration.ofSeconds(60);

	private final ReactiveStringRedisTemplate redis;

	private final RedisLockCommands commands;

	/**
	 * Creates the reactive commands of one client.
	 * @param redis the reactive connection to the same Redis as the blocking commands
	 * @param commands the blocking commands of the client, whose keyspace, reachability
	 * and claim window these share
	 */
	public ReactiveLockCommands(ReactiveStringRedisTemplate redis, RedisLockCommands commands) {
		this.redis = redis;
		this.commands = commands;
	}

	/** Returns the blocking commands these share their keyspace and reachability with. */
	public RedisLockCommands blocking() {
		return this.commands;
	}

	/**
	 * Asks the node of a lock whether it answers, as
	 * {@link RedisLockCommands#confirmAnswering}.
	 * @param key the Redis key of the lock
	 * @return completes when the node answered; a {@code DataAccessException} if not
	 */
	public Mono<Void> confirmAnswering(String key) {
		return recorded(key, this.redis.hasKey(key)).then();
	}

	/**
	 * Tries to acquire a lock, as {@link RedisLockCommands#acquire}; grants are never
	 * acknowledged by replicas here (a reactive client refuses to be built where they
	 * must be).
	 * @return the grant, or the holder's remaining lease and the fencing counter
	 */
	public Mono<AcquireReply> acquire(String key, String token, long leaseMillis, @Nullable String handOverChannel,
			long queueEntryTtlMillis, boolean mayBeQueued) {
		List<String> args = this.commands.acquireArguments(token, leaseMillis, handOverChannel, queueEntryTtlMillis, 1,
				mayBeQueued);
		return recorded(key,
				this.redis.execute(LockScripts.acquire(token), this.commands.scriptKeys(key), args)
					.collectList()
					.map((reply) -> this.commands.noticed(key, AcquireReply.of(flat(reply)))));
	}

	/**
	 * Renews the lease of one lock, only if it still holds the token, as
	 * {@link RedisLockCommands#renew} does for a batch; never acknowledged by replicas
	 * here (a reactive client refuses to be built where they must be).
	 * @param key the Redis key of the lock
	 * @param token its owner token
	 * @param leaseMillis the lease to set from now
	 * @return whether the lease was renewed
	 */
	public Mono<RenewalReply> renew(String key, String token, long leaseMillis) {
		List<String> args = List.of(RenewScriptCodec.arguments(List.of(token), leaseMillis, false));
		return recorded(key,
				this.redis.execute(LockScripts.RENEW, List.of(key), args)
					.collectList()
					.map((reply) -> RenewalReply.notAsked(RenewScriptCodec.renewed(flat(reply), 1))));
	}

	/**
	 * Releases a lock held with the token, as {@link RedisLockCommands#release}.
	 * @return what the release did
	 */
	public Mono<ReleaseOutcome> release(String key, String token, long keepMillis) {
		return runRelease(key, token, keepMillis, false);
	}

	/**
	 * Releases a lock held with the token, as
	 * {@link RedisLockCommands#release(String, String, String, long)}, with one call that
	 * touches the lock's key alone where it can: {@code delete-if-equal.lua} (a
	 * {@code GET} and a {@code DEL}), whatever the server, since Spring Data Redis's
	 * reactive API cannot send a command it does not know ({@code DELEX},
	 * {@code DELIFEQ}). While anyone waits, the key holds the token with the queued mark,
	 * the script deletes nothing, the name is remembered as contended, and the release
	 * script runs, which hands the lock over (or finds it lost), until an acquisition's
	 * first attempt finds the name's key free again
	 * ({@link RedisLockCommands#firstAttemptFoundFree}).
	 * @param name the logical name of the lock
	 * @return what the release did
	 */
	public Mono<ReleaseOutcome> release(String key, String name, String token, long keepMillis) {
		if (!this.commands.releasesByConditionalDelete(name, token, keepMillis)) {
			return release(key, token, keepMillis);
		}
		return recorded(key, this.redis.execute(LockScripts.DELETE_IF_EQUAL, List.of(key), List.of(token)).next())
			.flatMap((deleted) -> {
				if (deleted == 1) {
					return Mono.just(ReleaseOutcome.DELETED);
				}
				this.commands.conditionalDeleteDeletedNothing(name);
				return release(key, token, keepMillis);
			});
	}

	/**
	 * Takes the token out of the lock's queue and releases the lock if the token holds
	 * it, as {@link RedisLockCommands#leaveQueue}.
	 * @return what the release did
	 */
	public Mono<ReleaseOutcome> leaveQueue(String key, String token, long keepMillis) {
		return runRelease(key, token, keepMillis, true);
	}

	/**
	 * Returns background releases on the reactive connection, after the commands they
	 * undo ({@link PendingReleases#on}): for reactive acquisitions that end without the
	 * lock. Their thread does not wait for the answer (a stalled reactive connection
	 * holds up no other background release); one that does not come within 60 s (the
	 * connection's command timeout ends it sooner, if it has one) is tried again.
	 * @param pending the background releases of the client
	 * @return the background releases on the reactive connection
	 */
	public PendingReleases pendingReleases(PendingReleases pending) {
		return pending.on((key, token,
				keepMillis) -> leaveQueue(key, token, keepMillis).timeout(LONGEST_BACKGROUND_WAIT).toFuture());
	}

	private Mono<ReleaseOutcome> runRelease(String key, String token, long keepMillis, boolean leavingQueue) {
		return recorded(key,
				this.redis
					.execute(LockScripts.release(token), this.commands.scriptKeys(key),
							this.commands.releaseArguments(token, keepMillis, leavingQueue))
					.next()
					.map(ReleaseOutcome::of));
	}

	/**
	 * The reply of a script that returns an array: the reactive API may emit it whole or
	 * element by element.
	 */
	@SuppressWarnings("unchecked")
	private static List<Long> flat(List<?> reply) {
		if (reply.size() == 1 && reply.get(0) instanceof List<?> whole) {
			return (List<Long>) whole;
		}
		return (List<Long>) reply;
	}

	private <T> Mono<T> recorded(String key, Mono<T> command) {
		RedisReachability reachability = this.commands.reachability();
		return Mono.defer(() -> {
			long sent = reachability.sending(key);
			// Done exactly once per command: an operator downstream may cancel right
			// after the answer (next(), a grant taken), which must not count again.
			AtomicBoolean done = new AtomicBoolean();
			return command.doOnSuccess((result) -> {
				if (done.compareAndSet(false, true)) {
					reachability.answered(key, sent);
				}
			}).doOnError((ex) -> {
				if (done.compareAndSet(false, true)) {
					reachability.failed(key, sent, ex);
				}
			}).doFinally((signal) -> {
				if (signal == SignalType.CANCEL && done.compareAndSet(false, true)) {
					reachability.done(key, sent, false, true, null);
				}
			});
		});
	}

}
