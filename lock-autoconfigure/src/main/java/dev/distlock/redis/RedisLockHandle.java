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

	private volatile long lastRenewedNanos;

	private volatile long releasedNanos;

	RedisLockHandle(LockHolds lifecycle, String key, String token, long fencingToken, Duration leaseTime,
			LockOptions options, long acquiredNanos) {
		this.lifecycle = lifecycle;
		this.key = key;
		this.token = token;
		this.fencingToken = fencingToken;
		this.leaseTime = leaseTime;
		this.options = options;
		this.acquiredNanos = acquiredNanos;
		this.lastRenewedNanos = acquiredNanos;
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

	Duration minHoldTime() {
		return this.options.minHoldTime();
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public boolean isLeaseLost() {
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

	long lastRenewedNanos() {
		return this.lastRenewedNanos;
	}

	/** Whether the lease has run out by this process's count, since acquisition or the last renewal. */
	boolean leaseExpiredLocally() {
		return System.nanoTime() - this.lastRenewedNanos >= this.leaseTime.toNanos();
	}

	/**
	 * Whether the lock may pass from this hold to another thread of the client without Redis:
	 * the lease is auto-renewed and was renewed within the last two thirds of it (a renewal
	 * is due every third), it is not lost, and no minimum hold keeps the lock.
	 */
	boolean mayPassLocally() {
		return isAutoRenewing() && minHoldTime().isZero() && !isLeaseLost()
				&& System.nanoTime() - this.lastRenewedNanos < this.leaseTime.toNanos() / 3 * 2;
	}

	/** Whether this hold may still have the lock: its thread lives and its lease is neither lost nor run out. */
	boolean isHoldingHealthily() {
		return this.owner.isAlive() && !isLeaseLost() && !leaseExpiredLocally();
	}

	void renewed(long nanos) {
		this.lastRenewedNanos = nanos;
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
		Duration leaseRemaining = this.leaseTime.minusNanos(now - this.lastRenewedNanos);
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
