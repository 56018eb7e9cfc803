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

package dev.distlock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * How one acquisition waits, how long its lease lasts, how long the lock is kept at
 * least, and the logical name it is reported under.
 *
 * @param waitTime how long to wait for a lock that another holder has; zero means try
 * once
 * @param leaseTime how long Redis keeps the lock if it is not released first, or
 * {@code null} to renew the lease automatically for as long as the lock is held
 * @param minHoldTime how long the lock is kept at least, counted from its acquisition,
 * even if released earlier; zero to delete it on release
 * @param name the logical name of the lock, such as {@code "StockService.decrement"}: the
 * tag of its meters and the name shown by the {@code distlock} actuator endpoint. Unlike
 * the key it must come from a small fixed set; {@link #UNNAMED} by default
 * @param mode how the lock is shared: {@link LockMode#EXCLUSIVE} by default, or the read
 * or write side of a read-write lock
 * @param permits how many holders the key admits at once: 1 for a lock, more for a
 * semaphore whose every permit has its own lease. Every use of a key must give the same
 * number; a semaphore's mode is {@link LockMode#EXCLUSIVE}
 */
public record LockOptions(Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime, String name,
		LockMode mode, int permits) {

	/**
	 * The name of locks acquired without one, for example by programmatic calls that give
	 * no {@link #withName(String) name}.
	 */
	public static final String UNNAMED = "unnamed";

	/**
	 * Creates options, checking that the times are not negative, a fixed lease is at
	 * least one millisecond, the name is not blank, and the permits are at least one (and
	 * one for a read-write lock).
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts, or {@code null} to renew it while held
	 * @param minHoldTime how long the lock is kept at least
	 * @param name the logical name of the lock
	 * @param mode how the lock is shared
	 * @param permits how many holders the key admits at once
	 */
	public LockOptions {
		Assert.notNull(waitTime, "waitTime must not be null");
		Assert.notNull(minHoldTime, "minHoldTime must not be null");
		Assert.notNull(mode, "mode must not be null");
		Assert.isTrue(!waitTime.isNegative(), () -> "waitTime must not be negative, was " + waitTime);
		Assert.isTrue(leaseTime == null || leaseTime.toMillis() > 0,
				() -> "leaseTime must be at least 1ms, was " + leaseTime);
		Assert.isTrue(!minHoldTime.isNegative(), () -> "minHoldTime must not be negative, was " + minHoldTime);
		Assert.hasText(name, "name must not be blank");
		Assert.isTrue(permits > 0, () -> "permits must be at least 1, was " + permits);
		Assert.isTrue(permits == 1 || mode == LockMode.EXCLUSIVE, () -> "a semaphore (permits " + permits + ") has no "
				+ mode + " mode: use permits or a read-write mode");
	}

	/**
	 * Creates the options of an exclusive lock.
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts, or {@code null} to renew it while held
	 * @param minHoldTime how long the lock is kept at least
	 * @param name the logical name of the lock
	 */
	public LockOptions(Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime, String name) {
		this(waitTime, leaseTime, minHoldTime, name, LockMode.EXCLUSIVE, 1);
	}

	/**
	 * Creates options named {@link #UNNAMED}.
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts, or {@code null} to renew it while held
	 * @param minHoldTime how long the lock is kept at least
	 */
	public LockOptions(Duration waitTime, @Nullable Duration leaseTime, Duration minHoldTime) {
		this(waitTime, leaseTime, minHoldTime, UNNAMED);
	}

	/**
	 * Creates options with a fixed lease and no minimum hold.
	 * @param waitTime how long to wait for the lock
	 * @param leaseTime how long the lease lasts
	 */
	public LockOptions(Duration waitTime, Duration leaseTime) {
		this(waitTime, leaseTime, Duration.ZERO);
	}

	/**
	 * Creates options whose lease is renewed automatically while the lock is held.
	 * @param waitTime how long to wait for the lock
	 * @return the options
	 */
	public static LockOptions renewing(Duration waitTime) {
		return new LockOptions(waitTime, null, Duration.ZERO, UNNAMED);
	}

	/**
	 * Returns whether the lease is renewed automatically while the lock is held.
	 * @return {@code true} if there is no fixed lease time
	 */
	public boolean isAutoRenewing() {
		return this.leaseTime == null;
	}

	/**
	 * Returns a copy with another wait time.
	 * @param waitTime the new wait time
	 * @return the new options
	 */
	public LockOptions withWaitTime(Duration waitTime) {
		return new LockOptions(waitTime, this.leaseTime, this.minHoldTime, this.name, this.mode, this.permits);
	}

	/**
	 * Returns a copy with another lease time.
	 * @param leaseTime the new lease time, or {@code null} to renew the lease while held
	 * @return the new options
	 */
	public LockOptions withLeaseTime(@Nullable Duration leaseTime) {
		return new LockOptions(this.waitTime, leaseTime, this.minHoldTime, this.name, this.mode, this.permits);
	}

	/**
	 * Returns a copy with another minimum hold time.
	 * @param minHoldTime the new minimum hold time
	 * @return the new options
	 */
	public LockOptions withMinHoldTime(Duration minHoldTime) {
		return new LockOptions(this.waitTime, this.leaseTime, minHoldTime, this.name, this.mode, this.permits);
	}

	/**
	 * Returns a copy with another logical name, the tag its meters are recorded under:
	 * <pre class="code">
	 * lockClient.lock("lock:report:" + day, LockOptions.renewing(Duration.ZERO).withName("daily-report"));
	 * </pre> It only names the options: the times stay as they are, whatever is
	 * configured for the name. To start from the configured ones, use
	 * {@link LockClient#defaultOptions(String)}.
	 * @param name the new name, one of a small fixed set (never the key itself)
	 * @return the new options
	 */
	public LockOptions withName(String name) {
		return new LockOptions(this.waitTime, this.leaseTime, this.minHoldTime, name, this.mode, this.permits);
	}

	/**
	 * Returns a copy with another mode: the read or the write side of a read-write lock,
	 * or an exclusive lock. <pre class="code">
	 * lockClient.execute("lock:catalogue", lockClient.defaultOptions().withMode(LockMode.READ), this::readCatalogue);
	 * </pre>
	 * @param mode the new mode
	 * @return the new options
	 */
	public LockOptions withMode(LockMode mode) {
		return new LockOptions(this.waitTime, this.leaseTime, this.minHoldTime, this.name, mode, this.permits);
	}

	/**
	 * Returns a copy that takes one of a semaphore's permits: at most that many holders
	 * of the key at once, across all instances, each with its own lease. A thread that
	 * holds a permit and asks for the same semaphore again re-enters its permit (it does
	 * not take a second one).
	 * @param permits how many holders the key admits, the same for every use of the key;
	 * 1 for an ordinary lock
	 * @return the new options
	 */
	public LockOptions withPermits(int permits) {
		return new LockOptions(this.waitTime, this.leaseTime, this.minHoldTime, this.name, this.mode, permits);
	}

	/**
	 * Returns whether the lock is shared in some way: a read-write lock or a semaphore,
	 * which Redis keeps apart from exclusive locks.
	 * @return whether the mode is not {@link LockMode#EXCLUSIVE} or there is more than
	 * one permit
	 */
	public boolean isShared() {
		return this.mode != LockMode.EXCLUSIVE || this.permits > 1;
	}

}
