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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

import dev.distlock.Deadlines;
import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.MultiKeyLocking;
import dev.distlock.MultiLockHandle;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.protocol.MultiAcquireReply;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisErrors;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * Acquires several keys for the calling thread, all or nothing. The keys are ordered the
 * same way in every process: by cluster slot, then by Redis key, so that the keys of one
 * slot lie together. When they all lie in one slot (always on a single server or
 * Sentinel; on a cluster when hash tags put them together), no replica must acknowledge
 * grants, and the thread holds none of them yet, the first attempt takes them all at once
 * in one round trip ({@code multi-acquire.lua}: all of them, each with its own fencing
 * token, if every key is free, else none; the keys granted become ordinary holds,
 * renewed, watched and released like any other, but never passed to another thread of the
 * client without Redis: they are not the client's cohort's tenure, so a release always
 * goes through Redis and its queue, where the client's own waiters for the key queue
 * too). Otherwise, or when that attempt finds a key held and wait time remains, they are
 * acquired one by one in that order through the ordinary path (queued
 * first-come-first-served hand-over, waits, re-entry), within what is left of the wait
 * time, giving back those taken when one is not acquired or fails
 * ({@link MultiKeyLocking}): the caller never holds some keys beyond the wait time. The
 * keys given back are released in Redis in the background ({@link LockReleaser}), waited
 * for briefly only while their node answers, so that a call stopped by an outage still
 * ends within its wait time and one command timeout, with the outage's
 * {@link dev.distlock.LockUnavailableException}.
 */
final class MultiKeyAcquirer {

	/**
	 * How long a call waits for Redis to have released the keys it gives back, as an
	 * acquirer that gives up waits for Redis to have taken it out of a lock's queue.
	 */
	private static final long GIVE_BACK_WAIT_MILLIS = 100;

	/** The lock order: by cluster slot, then by key. */
	private static final Comparator<String> LOCK_ORDER = Comparator.comparingInt(LockKeyspace::slot)
		.thenComparing(Comparator.naturalOrder());

	private final LockKeyspace keyspace;

	private final RedisLockCommands commands;

	private final PendingReleases pending;

	private final OwnerTokens tokens;

	private final HeldLocks held;

	private final LockAcquirer acquirer;

	private final LockEvents events;

	private final ObservationRegistry observationRegistry;

	MultiKeyAcquirer(LockKeyspace keyspace, RedisLockCommands commands, PendingReleases pending, OwnerTokens tokens,
			HeldLocks held, LockAcquirer acquirer, LockEvents events, ObservationRegistry observationRegistry) {
		this.keyspace = keyspace;
		this.commands = commands;
		this.pending = pending;
		this.tokens = tokens;
		this.held = held;
		this.acquirer = acquirer;
		this.events = events;
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Acquires the keys, waiting for all of them no longer than the options allow.
	 * @param keys the keys as the caller gave them
	 * @return the holds, or empty if not all were acquired in time
	 */
	Optional<LockHandle> tryLock(Collection<String> keys, LockOptions options) {
		long start = System.nanoTime();
		List<String> ordered = order(keys, options);
		AllAtOnce first = takeAllAtOnce(ordered, options, start);
		if (first.handle() != null || !mayGoOn(first, options, start)) {
			return Optional.ofNullable(first.handle());
		}
		return MultiKeyLocking.tryLock(ordered, options, start, new KeyByKey());
	}

	/**
	 * Acquires the keys, as {@link #tryLock} does, or throws.
	 * @throws LockNotAcquiredException naming a key not acquired in time, and saying so
	 * if its grant came too late to trust
	 */
	LockHandle lock(Collection<String> keys, LockOptions options) {
		long start = System.nanoTime();
		List<String> ordered = order(keys, options);
		AllAtOnce first = takeAllAtOnce(ordered, options, start);
		MultiLockHandle handle = first.handle();
		if (handle != null) {
			return handle;
		}
		if (!mayGoOn(first, options, start)) {
			throw this.acquirer.notAcquired(first.key(), options, start, first.lateGrant());
		}
		return MultiKeyLocking.lock(ordered, options, start, new KeyByKey());
	}

	private List<String> order(Collection<String> keys, LockOptions options) {
		MultiKeyLocking.check(keys, options);
		return keys.stream().map(this.keyspace::lockKey).distinct().sorted(LOCK_ORDER).toList();
	}

	/**
	 * Takes every key in one round trip if it may; a result without a key if the attempt
	 * was not made.
	 */
	private AllAtOnce takeAllAtOnce(List<String> keys, LockOptions options, long start) {
		boolean oneSlot = !this.keyspace.isCluster()
				|| keys.stream().mapToInt(LockKeyspace::slot).distinct().count() == 1;
		if (!oneSlot || this.commands.acknowledgement().isRequired()
				|| keys.stream().anyMatch(this.held::isHeldByThread)) {
			return new AllAtOnce(null, "", null);
		}
		AllAtOnce result = attemptAllAtOnce(keys, options, start);
		if (result.handle() == null && !mayGoOn(result, options, start)) {
			this.events.notAcquired(result.key(), options, start);
		}
		return result;
	}

	/**
	 * Tries once to acquire every key.
	 * @param keys the Redis keys, distinct, in lock order, in one hash slot
	 * @param start when the call began, by {@link System#nanoTime()}
	 * @return the holds, or the key found held (the first key if the thread is
	 * interrupted or the grant came too late to trust)
	 * @throws LockUnavailableException if Redis cannot be reached
	 * @throws LockMisconfigurationException if Redis refuses the attempt for a reason to
	 * fix
	 */
	private AllAtOnce attemptAllAtOnce(List<String> keys, LockOptions options, long start) {
		if (Thread.currentThread().isInterrupted()) {
			return new AllAtOnce(null, keys.get(0), null);
		}
		Duration lease = this.acquirer.leaseOf(options);
		this.commands.quarantine().checkLease(keys.get(0), lease);
		String token = this.tokens.next();
		Observation observation = LockObservationDocumentation.ACQUISITION.start(this.observationRegistry, keys.get(0),
				options);
		long sent = System.nanoTime();
		MultiAcquireReply reply;
		try {
			reply = this.commands.multiAcquire(keys, token, lease.toMillis());
		}
		catch (DataAccessException ex) {
			LockMisconfigurationException misconfigured = RedisErrors.misconfiguration(keys.get(0), "acquire", ex);
			if (misconfigured == null) {
				// The script may have run although its reply was lost: undo it once Redis
				// answers.
				keys.forEach((key) -> this.pending.release(key, token, sent + lease.toNanos()));
			}
			if (misconfigured == null && Thread.currentThread().isInterrupted()) {
				LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
				return new AllAtOnce(null, keys.get(0), null);
			}
			throw failedAllAtOnce(observation, keys.get(0), options, start, (misconfigured != null) ? misconfigured
					: this.commands.unavailable(keys.get(0), options.name(), "acquire", ex));
		}
		if (reply instanceof MultiAcquireReply.Held held) {
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
			return new AllAtOnce(null, keys.get(held.index()), null);
		}
		MultiAcquireReply.Granted granted = (MultiAcquireReply.Granted) reply;
		if (new Grant(granted.fencingToken(0), 1, sent, lease).hasRunOut()) {
			// The reply came after the leases may have run out (a pause, a slow network):
			// let them go. Redis may have applied them as late as now: they have surely
			// run out a lease from now.
			long replied = System.nanoTime();
			keys.forEach((key) -> this.pending.release(key, token, replied + lease.toNanos()));
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.NOT_ACQUIRED);
			return new AllAtOnce(null, keys.get(0), Duration.ofNanos(replied - sent));
		}
		List<RedisLockHandle> holds = new ArrayList<>(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			Grant grant = new Grant(granted.fencingToken(i), 1, sent, lease);
			holds.add(this.acquirer.grantedInRedis(keys.get(i), token, grant, lease, options, start));
		}
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.ACQUIRED);
		for (RedisLockHandle hold : holds) {
			hold.observe(LockObservationDocumentation.HOLD.start(this.observationRegistry, hold.key(), options));
		}
		return new AllAtOnce(new MultiLockHandle(holds), keys.get(0), null);
	}

	private RuntimeException failedAllAtOnce(Observation observation, String key, LockOptions options, long start,
			RuntimeException failure) {
		if (failure instanceof LockUnavailableException unavailable) {
			this.events.unavailable(key, options, start, unavailable);
		}
		observation.error(failure);
		LockObservationDocumentation.stop(observation, LockObservationDocumentation.ERROR);
		return failure;
	}

	/** Whether to go on key by key: the attempt was not made, or wait time remains. */
	private boolean mayGoOn(AllAtOnce attempt, LockOptions options, long start) {
		return attempt.key().isEmpty() || System.nanoTime() - start < Deadlines.nanos(options.waitTime());
	}

	/**
	 * What the attempt to take every key at once got.
	 *
	 * @param handle the holds of every key, or null if none was acquired
	 * @param key the key found held if none was acquired (the first key if the grant came
	 * too late to trust), empty if no attempt was made
	 * @param lateGrant how long after its request the grant came, if it came too late to
	 * trust
	 */
	record AllAtOnce(@Nullable MultiLockHandle handle, String key, @Nullable Duration lateGrant) {

	}

	/**
	 * Locks the keys of one call one by one through the ordinary path, gives back those
	 * taken without waiting for Redis, and tells a key whose grant came too late to trust
	 * from one another holder kept.
	 */
	private final class KeyByKey implements MultiKeyLocking.KeyLocker {

		private @Nullable String lateKey;

		private @Nullable Duration lateGrant;

		@Override
		public Optional<LockHandle> tryLock(String redisKey, LockOptions options) {
			return Optional
				.ofNullable(MultiKeyAcquirer.this.acquirer.acquire(redisKey, options, System.nanoTime(), (late) -> {
					this.lateKey = redisKey;
					this.lateGrant = late;
				}));
		}

		@Override
		public LockNotAcquiredException notAcquired(String key, LockOptions options, long startNanos) {
			return MultiKeyAcquirer.this.acquirer.notAcquired(key, options, startNanos,
					key.equals(this.lateKey) ? this.lateGrant : null);
		}

		/**
		 * Gives back each hold taken: a new one is passed on or released in Redis in the
		 * background; one that re-entered a key the thread already held only ends its own
		 * count. Then waits briefly for Redis to have released those whose node is not in
		 * doubt, so that a caller that tries again at once finds them free; a node in
		 * doubt is not waited for, nor is anything for an interrupted thread.
		 * @return null: a release that fails is retried in the background
		 */
		@Override
		public @Nullable RuntimeException giveBack(List<LockHandle> taken) {
			List<CompletableFuture<Void>> releases = new ArrayList<>(taken.size());
			for (int i = taken.size() - 1; i >= 0; i--) {
				if (taken.get(i) instanceof RedisLockHandle hold) {
					CompletableFuture<Void> release = hold.giveBack();
					if (!MultiKeyAcquirer.this.commands.reachability().inDoubt(hold.key())) {
						releases.add(release);
					}
				}
				else {
					taken.get(i).release();
				}
			}
			if (!releases.isEmpty() && !Thread.currentThread().isInterrupted()) {
				awaitBriefly(CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)));
			}
			return null;
		}

		private void awaitBriefly(CompletableFuture<Void> releases) {
			try {
				releases.get(GIVE_BACK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				// Left to the background.
			}
		}

	}

}
