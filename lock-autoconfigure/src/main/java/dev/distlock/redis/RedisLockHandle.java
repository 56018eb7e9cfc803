package dev.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.PassableHold;
import dev.distlock.redis.lease.Lease;
import dev.distlock.redis.lease.RenewedHold;
import dev.distlock.redis.protocol.RedisReachability;

/**
 * A lock acquired by {@link RedisLockClient}: key, owner token, fencing token and lease.
 * It counts the holds of its thread (one plus each re-entrant acquisition) and releases
 * the lock in Redis when the last hold ends. Its validity is local and conservative
 * ({@link Lease}): past its deadline the lease counts as lost, whether or not a renewal
 * has failed yet.
 */
final class RedisLockHandle implements LockHandle, RenewedHold, PassableHold {

	/** What ends a hold in Redis, or passes it on, when its last hold ends. */
	interface Ending {

		/**
		 * Ends a hold whose last (outer) hold was released.
		 * @param handle the hold
		 */
		void lastHoldEnded(RedisLockHandle handle);

	}

	private final Ending ending;

	private final String key;

	private final String token;

	private final long fencingToken;

	private final Duration leaseTime;

	private final LockOptions options;

	private final long acquiredNanos;

	private final Thread owner;

	private final HoldCount holds = new HoldCount();

	private final AtomicBoolean released = new AtomicBoolean();

	private final Lease lease;

	private volatile long releasedNanos;

	/**
	 * Creates a hold.
	 * @param lease the hold's validity, by the local count
	 */
	RedisLockHandle(Ending ending, String key, String token, long fencingToken, Duration leaseTime, LockOptions options,
			Lease lease) {
		this.ending = ending;
		this.key = key;
		this.token = token;
		this.fencingToken = fencingToken;
		this.leaseTime = leaseTime;
		this.options = options;
		this.acquiredNanos = System.nanoTime();
		this.lease = lease;
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

	@Override
	public String token() {
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

	Duration minHoldTime() {
		return this.options.minHoldTime();
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public boolean isLeaseLost() {
		return this.lease.isLost();
	}

	/** Whether the local validity has run out: Redis may have expired the lock. */
	boolean isPastDeadline() {
		return this.lease.isPastDeadline();
	}

	@Override
	public boolean isReleased() {
		return this.released.get();
	}

	@Override
	public Thread owner() {
		return this.owner;
	}

	Duration heldFor() {
		return Duration.ofNanos(System.nanoTime() - this.acquiredNanos);
	}

	/**
	 * When the last acquire or renewal that Redis confirmed was sent, by
	 * {@link System#nanoTime()}.
	 */
	long confirmedSendNanos() {
		return this.lease.confirmedSendNanos();
	}

	@Override
	public Lease leasePassedOn() {
		return this.lease.passedOn();
	}

	/**
	 * Whether the lock may pass from this hold to another thread of the client without
	 * Redis: the lease is auto-renewed, no minimum hold keeps the lock, more than a third
	 * of the lease is left by the local count (a renewal is due every third), and Redis
	 * confirmed the hold after the last trouble with the connection and is not in doubt
	 * now.
	 */
	@Override
	public boolean mayPassLocally(RedisReachability reachability) {
		return isAutoRenewing() && minHoldTime().isZero() && !isLeaseLost()
				&& this.lease.validUntilNanos() - System.nanoTime() > this.leaseTime.toNanos() / 3
				&& reachability.allowsLocalPass(this.lease.confirmedSendNanos());
	}

	@Override
	public boolean isHoldingHealthily() {
		return this.owner.isAlive() && !isLeaseLost();
	}

	@Override
	public void confirmed(long sentNanos, Duration validFor) {
		this.lease.confirmed(sentNanos, validFor);
	}

	/** Marks the lease lost; returns true only the first time. */
	boolean markLeaseLost() {
		return this.lease.markLost();
	}

	@Override
	public long releasedNanos() {
		return this.releasedNanos;
	}

	void markReleasedInRedis(long nanos) {
		this.releasedNanos = nanos;
	}

	/**
	 * Counts a re-entrant hold, which a {@link NestedLockHandle} ends; false if the last
	 * hold ended.
	 */
	boolean enter() {
		return this.holds.enter();
	}

	/** Ends one hold; the last one releases the lock in Redis, or passes it on. */
	void exit() {
		if (this.holds.exit()) {
			this.ending.lastHoldEnded(this);
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
		Duration leaseRemaining = this.lease.remaining();
		return new HeldLockInfo(name(), this.key, Instant.now().minus(heldFor), heldFor,
				leaseRemaining.isNegative() ? Duration.ZERO : leaseRemaining, isAutoRenewing(), this.fencingToken,
				this.holds.depth(), this.owner.getName(), isLeaseLost());
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
