package dev.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * A lock acquired by {@link RedisLockClient}: key, owner token, fencing token and lease. It
 * counts the holds of its thread (one plus each re-entrant acquisition) and releases the lock in
 * Redis when the last hold ends.
 * <p>
 * Its validity is local and conservative: Redis cannot have started the lease before the
 * request that acquired or renewed it was sent, so the hold is valid until that send time plus
 * the lease, minus a drift margin for clocks that run at different rates
 * ({@link #DRIFT_FACTOR} of the lease plus {@link #DRIFT_MILLIS}). Past that deadline the lease
 * counts as lost, whether or not a renewal has failed yet.
 */
final class RedisLockHandle implements LockHandle {

	private final LockHolds lifecycle;

	private final String key;

	private final String token;

	private final long fencingToken;

	private final Duration leaseTime;

	private final LockOptions options;

	private final long acquiredNanos;

	private final Thread owner;

	private final AtomicInteger holds = new AtomicInteger(1);

	private final AtomicBoolean released = new AtomicBoolean();

	private final AtomicBoolean leaseLost = new AtomicBoolean();

	private volatile long confirmedSendNanos;

	private volatile long validUntilNanos;

	private volatile long releasedNanos;

	/** The share of a lease taken off its local validity, for clock drift. */
	static final double DRIFT_FACTOR = 0.01;

	/** The time taken off every local validity, for clock drift, in ms. */
	static final long DRIFT_MILLIS = 2;

	/**
	 * Creates a hold.
	 * @param sentNanos when the request that granted the lock was sent
	 * @param validFor how long Redis keeps the lock from that request: the lease, or the claim
	 * window of a hand-over that is still to be confirmed
	 */
	RedisLockHandle(LockHolds lifecycle, String key, String token, long fencingToken, Duration leaseTime,
			LockOptions options, long sentNanos, Duration validFor) {
		this.lifecycle = lifecycle;
		this.key = key;
		this.token = token;
		this.fencingToken = fencingToken;
		this.leaseTime = leaseTime;
		this.options = options;
		this.acquiredNanos = System.nanoTime();
		this.confirmedSendNanos = sentNanos;
		this.validUntilNanos = validUntil(sentNanos, validFor);
		this.owner = Thread.currentThread();
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public String name() {
		return this.options.name();
	}

	String token() {
		return this.token;
	}

	@Override
	public Duration leaseTime() {
		return this.leaseTime;
	}

	@Override
	public boolean isAutoRenewing() {
		return this.options.isAutoRenewing();
	}

	LockOptions options() {
		return this.options;
	}

	Duration minHoldTime() {
		return this.options.minHoldTime();
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	/**
	 * Returns whether the lease was found lost, or has run out by this process's count.
	 */
	@Override
	public boolean isLeaseLost() {
		return this.leaseLost.get() || isPastDeadline();
	}

	/** Whether the local validity has run out: Redis may have expired the lock. */
	boolean isPastDeadline() {
		return System.nanoTime() - this.validUntilNanos >= 0;
	}

	/** Whether the lease was marked lost (not merely past its local deadline). */
	boolean isMarkedLost() {
		return this.leaseLost.get();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	Thread owner() {
		return this.owner;
	}

	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	/** When the last acquire or renewal that Redis confirmed was sent, by {@link System#nanoTime()}. */
	long confirmedSendNanos() {
		return this.confirmedSendNanos;
	}

	/** Until when the hold is valid by this process's count, by {@link System#nanoTime()}. */
	long validUntilNanos() {
		return this.validUntilNanos;
	}

	/**
	 * Whether the lock may pass from this hold to another thread of the client without Redis:
	 * the lease is auto-renewed, no minimum hold keeps the lock, more than a third of the lease
	 * is left by the local count (a renewal is due every third), and Redis confirmed the hold
	 * after the last trouble with the connection and is not in doubt now.
	 */
	boolean mayPassLocally(RedisReachability reachability) {
		return isAutoRenewing() && minHoldTime().isZero() && !isLeaseLost()
				&& this.validUntilNanos - System.nanoTime() > this.leaseTime.toNanos() / 3
				&& reachability.allowsLocalPass(this.confirmedSendNanos);
	}

	/** Whether this hold may still have the lock: its thread lives and its lease is neither lost nor run out. */
	boolean isHoldingHealthily() {
		return this.owner.isAlive() && !isLeaseLost();
	}

	/**
	 * Records that Redis confirmed the hold for the given time from a request sent then; a
	 * confirmation older than the last one, or one that comes after the lease was lost or its
	 * local validity ran out, changes nothing: once lost, a hold stays lost.
	 */
	synchronized void confirmed(long sentNanos, Duration validFor) {
		long until = validUntil(sentNanos, validFor);
		if (!this.leaseLost.get() && !isPastDeadline() && until - this.validUntilNanos > 0) {
			this.confirmedSendNanos = sentNanos;
			this.validUntilNanos = until;
		}
	}

	/** Takes the validity over from the hold that passed the lock to this one. */
	synchronized void inherit(long confirmedSendNanos, long validUntilNanos) {
		this.confirmedSendNanos = confirmedSendNanos;
		this.validUntilNanos = validUntilNanos;
	}

	/**
	 * Returns until when a hold is valid by the local count: the send time plus its validity,
	 * minus the drift margin.
	 */
	static long validUntil(long sentNanos, Duration validFor) {
		long nanos = validFor.toNanos();
		long drift = (long) (nanos * DRIFT_FACTOR) + DRIFT_MILLIS * 1_000_000;
		return sentNanos + nanos - drift;
	}

	/** Marks the lease lost; returns true only the first time. */
	boolean markLeaseLost() {
		return this.leaseLost.compareAndSet(false, true);
	}

	/** When the release of the lock completed in Redis, by System.nanoTime(); 0 until then. */
	long releasedNanos() {
		return this.releasedNanos;
	}

	void markReleasedInRedis(long nanos) {
		this.releasedNanos = nanos;
	}

	/** Adds a re-entrant hold; returns null if the last hold already ended. */
	@Nullable LockHandle enter() {
		int current;
		do {
			current = this.holds.get();
			if (current == 0) {
				return null;
			}
		}
		while (!this.holds.compareAndSet(current, current + 1));
		return new NestedLockHandle(this);
	}

	/** Ends one hold; the last one releases the lock in Redis. */
	void exit() {
		if (this.holds.decrementAndGet() == 0) {
			this.lifecycle.release(this);
		}
	}

	boolean isHeldInRedis() {
		return this.holds.get() > 0;
	}

	/** Describes this lock for monitoring, without its owner token. */
	HeldLockInfo info() {
		long now = System.nanoTime();
		Duration heldFor = Duration.ofNanos(now - this.acquiredNanos);
		Duration leaseRemaining = Duration.ofNanos(this.validUntilNanos - now);
		return new HeldLockInfo(name(), this.key, Instant.now().minus(heldFor), heldFor,
				leaseRemaining.isNegative() ? Duration.ZERO : leaseRemaining, isAutoRenewing(), this.fencingToken,
				this.holds.get(), this.owner.getName(), isLeaseLost());
	}

	@Override
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			exit();
		}
	}

	@Override
	public String toString() {
		return "RedisLockHandle[name=" + name() + ", key=" + this.key + ", fencingToken=" + this.fencingToken
				+ ", leaseTime=" + this.leaseTime + ", autoRenewing=" + isAutoRenewing() + ", released=" + isReleased()
				+ "]";
	}

}
