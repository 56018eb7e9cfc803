package dev.distlock;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How one acquisition waits and how long its lease lasts.
 *
 * @param waitTime how long to wait for a lock that another holder has; zero means try once
 * @param leaseTime how long Redis keeps the lock if it is not released first
 */
public record LockOptions(Duration waitTime, Duration leaseTime) {

	/**
	 * Creates options, checking that the wait is not negative and the lease is positive.
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts
	 */
	public LockOptions {
		Assert.notNull(waitTime, "waitTime must not be null");
		Assert.notNull(leaseTime, "leaseTime must not be null");
		Assert.isTrue(!waitTime.isNegative(), () -> "waitTime must not be negative, was " + waitTime);
		Assert.isTrue(leaseTime.toMillis() > 0, () -> "leaseTime must be at least 1ms, was " + leaseTime);
	}

	/**
	 * Returns a copy with another wait time.
	 * @param waitTime the new wait time
	 * @return the new options
	 */
	public LockOptions withWaitTime(Duration waitTime) {
		return new LockOptions(waitTime, this.leaseTime);
	}

	/**
	 * Returns a copy with another lease time.
	 * @param leaseTime the new lease time
	 * @return the new options
	 */
	public LockOptions withLeaseTime(Duration leaseTime) {
		return new LockOptions(this.waitTime, leaseTime);
	}

}
