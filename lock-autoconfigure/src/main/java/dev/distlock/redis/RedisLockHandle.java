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
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockKind;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.cohort.PassableHold;
import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.lease.RenewedHold;
import dev.distlock.redis.monitor.HeldLockInfo;
import dev.distlock.redis.protocol.AcquireReply;
import dev.distlock.redis.protocol.MinimumHold;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.support.HoldCount;

/**
 * A lock acquired by {@link RedisLockClient}: key, owner token, fencing token and lease.
 * It counts the holds of its thread (one plus each re-entrant acquisition) and releases
 * the lock in Redis when the last hold ends. Its validity is local and conservative
 * ({@link Lease}): past its deadline the lease counts as lost, whether or not a renewal
 * has failed yet. The renewal of leases sees it as a {@link RenewedHold}, and passing
 * within the client as a {@link PassableHold}; a hold of reactive work belongs to no
 * thread.
 */
final class RedisLockHandle implements LockHandle, RenewedHold, PassableHold {

	private final String key;

	private final String token;

	/**
	 * The fencing token, or {@link AcquireReply.Granted#NOT_ISSUED} until the holder of a
	 * lock acquired without the acquire script first asks for it.
	 */
	private volatile long fencingToken;

	private final Duration leaseTime;

	private final Lease lease;

	private final Thread owner;

	private final boolean boundToThread;

	private volatile long releasedNanos;

	/** Ends the hold in Redis, or passes it on, when its last hold ends. */
	private final Consumer<RedisLockHandle> ending;

	private final Extension extension;

	private final TokenIssuer tokens;

	/** Where a lost lease is reported. */
	private final LockEvents events;

	/**
	 * Held while an extension, or the request for a fencing token, is sent and applied:
	 * one at a time per hold.
	 */
	private final Object extending = new Object();

	private final LockOptions options;

	private final long acquiredNanos;

	private final HoldCount holds = new HoldCount();

	private final AtomicBoolean released = new AtomicBoolean();

	private volatile boolean givenBack;

	private volatile @Nullable CompletableFuture<Void> backgroundRelease;

	private volatile Observation observation = Observation.NOOP;

	/**
	 * Creates a hold of the current thread, or of reactive work if not bound to the
	 * thread, whose validity, by the local count, is the given lease.
	 */
	RedisLockHandle(Consumer<RedisLockHandle> ending, Extension extension, TokenIssuer tokens, LockEvents events,
			String key, String token, long fencingToken, Duration leaseTime, LockOptions options, Lease lease,
			boolean boundToThread) {
		this.key = key;
		this.token = token;
		this.fencingToken = fencingToken;
		this.leaseTime = leaseTime;
		this.lease = lease;
		this.owner = Thread.currentThread();
		this.boundToThread = boundToThread;
		this.ending = ending;
		this.extension = extension;
		this.tokens = tokens;
		this.events = events;
		this.options = options;
		this.acquiredNanos = System.nanoTime();
	}

	/** Whether the hold belongs to the thread that took it (not to reactive work). */
	boolean isBoundToThread() {
		return this.boundToThread;
	}

	@Override
	public boolean isHolderAlive() {
		return !this.boundToThread || this.owner.isAlive();
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public String token() {
		return this.token;
	}

	/**
	 * Returns the fencing token; a lock acquired without the acquire script gets it from
	 * Redis the first time it is asked for, owner-checked ({@link TokenIssuer}), and
	 * keeps it.
	 * @throws LockLeaseLostException if the lock is no longer held with this hold's owner
	 * token, or its lease ran out by the local count
	 * @throws IllegalStateException if the hold was released before its token was asked
	 * for
	 * @throws dev.distlock.LockUnavailableException if Redis does not answer
	 */
	@Override
	public long fencingToken() {
		long known = this.fencingToken;
		return (known != AcquireReply.Granted.NOT_ISSUED) ? known : issueFencingToken();
	}

	private long issueFencingToken() {
		synchronized (this.extending) {
			if (this.fencingToken == AcquireReply.Granted.NOT_ISSUED) {
				this.fencingToken = this.tokens.issue(this, isReleased());
			}
			return this.fencingToken;
		}
	}

	/**
	 * Returns the fencing token if it was issued, without asking Redis for it.
	 * @return the token, or {@link AcquireReply.Granted#NOT_ISSUED}
	 */
	long issuedFencingToken() {
		return this.fencingToken;
	}

	@Override
	public Duration leaseTime() {
		return this.leaseTime;
	}

	@Override
	public Thread owner() {
		return this.owner;
	}

	@Override
	public boolean isLeaseLost() {
		return this.lease.isLost();
	}

	@Override
	public long validUntilNanos() {
		return this.lease.validUntilNanos();
	}

	/** Whether the local validity has run out: Redis may have expired the lock. */
	boolean isPastDeadline() {
		return this.lease.isPastDeadline();
	}

	/** Returns how long the lease is still valid by the local count. */
	Duration leaseRemaining() {
		return this.lease.remaining();
	}

	@Override
	public long confirmedSendNanos() {
		return this.lease.confirmedSendNanos();
	}

	@Override
	public Lease leasePassedOn() {
		return this.lease.passedOn();
	}

	/**
	 * Whether Redis keeps the hold for a hand-over's claim window only: neither confirmed
	 * nor extended since ({@link Lease#isClaimOnly}).
	 */
	@Override
	public boolean isClaimOnly() {
		return this.lease.isClaimOnly();
	}

	/**
	 * Whether the lease lets the lock pass within the client: not lost, more than a third
	 * of it left (of the claim window, for a hand-over still on its claim: the hold
	 * passed it is confirmed when it lasts), and confirmed after the last trouble with
	 * Redis, which is not in doubt now.
	 */
	boolean leaseAllowsLocalPass(RedisReachability reachability) {
		long validUntil = this.lease.validUntilNanos();
		long confirmedSend = this.lease.confirmedSendNanos();
		long granted = this.lease.isClaimOnly() ? validUntil - confirmedSend : this.leaseTime.toNanos();
		return !isLeaseLost() && validUntil - System.nanoTime() > granted / 3
				&& reachability.allowsLocalPass(confirmedSend);
	}

	@Override
	public boolean isHoldingHealthily() {
		return isHolderAlive() && !isLeaseLost();
	}

	@Override
	public void confirmed(long sentNanos, Duration validFor) {
		this.lease.confirmed(sentNanos, validFor);
	}

	/**
	 * Records that an extension to the given lease is about to be sent
	 * ({@link Lease#extensionSending}).
	 * @return its send time, by {@link System#nanoTime()}
	 */
	long extensionSending(Duration validFor) {
		return this.lease.extensionSending(validFor);
	}

	/**
	 * Records that an extension sent then got no answer, or one that did not confirm it
	 * ({@link Lease#extensionUnanswered}).
	 */
	void extensionUnanswered(long sentNanos, Duration validFor) {
		this.lease.extensionUnanswered(sentNanos, validFor);
	}

	/**
	 * Moves the local deadline to the lease Redis set by an extension sent then, earlier
	 * or later ({@link Lease#extended}).
	 * @return false if the lease was lost or ran out by the local count first
	 */
	boolean extended(long sentNanos, Duration validFor) {
		return this.lease.extended(sentNanos, validFor);
	}

	/** Runs the action once the lease is marked lost (for reactive work). */
	void onLeaseLost(Runnable action) {
		this.lease.onLost(action);
	}

	/** Forgets an action given to {@link #onLeaseLost}, if it has not run. */
	void removeOnLeaseLost(Runnable action) {
		this.lease.removeOnLost(action);
	}

	/**
	 * Marks the lease lost and, the first time only, logs it and tells the listeners.
	 * @param reason why, as the log line and the listeners say it
	 */
	void leaseLost(String reason) {
		if (this.lease.markLost()) {
			this.events.leaseLost(this, heldFor(), reason);
		}
	}

	@Override
	public long releasedNanos() {
		return this.releasedNanos;
	}

	void markReleasedInRedis(long nanos) {
		this.releasedNanos = nanos;
	}

	@Override
	public String name() {
		return this.options.name();
	}

	@Override
	public LockMode mode() {
		return this.options.mode();
	}

	@Override
	public int permits() {
		return this.options.permits();
	}

	@Override
	public boolean isAutoRenewing() {
		return this.options.isAutoRenewing();
	}

	/**
	 * Whether this is a shared hold (a reader, a writer or a permit), which never passes
	 * between threads of the client.
	 */
	boolean isShared() {
		return this.options.isShared();
	}

	/** Returns the options the hold was acquired with. */
	LockOptions options() {
		return this.options;
	}

	Duration minHoldTime() {
		return this.options.minHoldTime();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	/** How long the hold has been held, from its grant. */
	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	/**
	 * Returns how long a release must still keep the lock, counted from when this hold
	 * was granted (by this process's count, no earlier than in Redis), whether the
	 * release is sent now or retried later.
	 */
	MinimumHold minimumHold() {
		return MinimumHold.from(this.acquiredNanos, minHoldTime());
	}

	/**
	 * Whether the lock may pass from this hold to another thread of the client without
	 * Redis: the hold is not shared, the lease is auto-renewed, no minimum hold keeps the
	 * lock, more than a third of the lease is left by the local count (a renewal is due
	 * every third; of the claim window, for a hand-over still on its claim), and Redis
	 * confirmed the hold after the last trouble with the connection and is not in doubt
	 * now.
	 */
	@Override
	public boolean mayPassLocally(RedisReachability reachability) {
		return !isShared() && isAutoRenewing() && minHoldTime().isZero() && leaseAllowsLocalPass(reachability);
	}

	@Override
	public LeaseLossWatch whenLeaseLost(Runnable action) {
		Runnable once = action::run; // a distinct object per watch
		onLeaseLost(once);
		return () -> removeOnLeaseLost(once);
	}

	@Override
	public Observation observation() {
		return this.observation;
	}

	/**
	 * Sets the observation of this hold, which ends with its last hold; before the handle
	 * is given to its holder.
	 */
	void observe(Observation observation) {
		this.observation = observation;
	}

	/**
	 * Counts a re-entrant hold, which a {@link NestedLockHandle} ends; false if the last
	 * hold ended.
	 */
	boolean enter() {
		return this.holds.enter();
	}

	/**
	 * Ends one hold; the last one releases the lock in Redis, or passes it on, and stops
	 * the observation of the hold, however the release went.
	 */
	void exit() {
		if (this.holds.exit()) {
			try {
				this.ending.accept(this);
			}
			finally {
				LockObservationDocumentation.stopHold(this.observation, this);
			}
		}
	}

	/**
	 * Whether the last hold of this lock has ended (by this process's count; Redis is not
	 * asked).
	 */
	@Override
	public boolean hasEnded() {
		return this.holds.hasEnded();
	}

	/** Describes this lock for monitoring, without its owner token. */
	HeldLockInfo info() {
		Duration heldFor = heldFor();
		LockKind kind = LockKind.of(this.options);
		return new HeldLockInfo(name(), key(), Instant.now().minus(heldFor), heldFor, leaseRemaining(),
				isAutoRenewing(), issuedFencingToken(), this.holds.depth(),
				isBoundToThread() ? owner().getName() : "reactive work", isLeaseLost(), kind.label(), kind.modeLabel(),
				kind.permits());
	}

	@Override
	public void extend(Duration leaseTime) {
		synchronized (this.extending) {
			this.extension.extend(this, leaseTime, isReleased());
		}
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			exit();
		}
	}

	/**
	 * Releases this hold for work that never ran (another key of the same call was not
	 * acquired), without waiting for Redis: the last hold is passed on, or released in
	 * Redis in the background ({@link LockReleaser}), so that the call is not held up by
	 * a server that stopped answering.
	 * @return completed once the first attempt of the release in Redis has ended
	 * (answered or not); at once if the hold was passed on or is still held by an outer
	 * hold
	 */
	CompletableFuture<Void> giveBack() {
		if (this.released.compareAndSet(false, true)) {
			this.givenBack = true;
			exit();
		}
		CompletableFuture<Void> release = this.backgroundRelease;
		return (release != null) ? release : CompletableFuture.completedFuture(null);
	}

	/**
	 * Whether this hold was {@linkplain #giveBack() given back} unused, rather than
	 * released by its holder.
	 */
	boolean isGivenBack() {
		return this.givenBack;
	}

	/**
	 * Records that the hold, given back, is released in Redis in the background.
	 * @param firstAttempt completed once the first attempt has ended
	 */
	void releasingInBackground(CompletableFuture<Void> firstAttempt) {
		this.backgroundRelease = firstAttempt;
	}

	@Override
	public String toString() {
		long issued = issuedFencingToken();
		return "RedisLockHandle[name=" + name() + ", key=" + key() + ", fencingToken="
				+ ((issued != AcquireReply.Granted.NOT_ISSUED) ? issued : "not issued yet") + ", leaseTime="
				+ leaseTime() + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased() + "]";
	}

	/**
	 * Issues the fencing token of a hold acquired without the acquire script, at its
	 * holder's request ({@link LazyFencingTokens}).
	 */
	@FunctionalInterface
	interface TokenIssuer {

		/**
		 * Asks Redis, on the calling thread, for the fencing token of a hold whose key
		 * must still hold its owner token.
		 * @param hold the hold
		 * @param released whether the holder's handle was released
		 * @return the token, at least 1
		 */
		long issue(RedisLockHandle hold, boolean released);

	}

	/** Extends the lease of a hold at its holder's request ({@link LeaseExtension}). */
	@FunctionalInterface
	interface Extension {

		/**
		 * Extends the hold's lease to the given time from now, on the calling thread.
		 * @param hold the hold
		 * @param leaseTime the new lease, from now
		 * @param released whether the holder's handle was released
		 */
		void extend(RedisLockHandle hold, Duration leaseTime, boolean released);

	}

}
