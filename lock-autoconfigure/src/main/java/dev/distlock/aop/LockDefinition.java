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

package dev.distlock.aop;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.LockRelease;

/**
 * A parsed {@link dev.distlock.DistributedLock @DistributedLock}: placeholders resolved,
 * durations parsed, the key expression checked, the fallback method found.
 *
 * @param method the annotated method, as declared on the target class
 * @param keyExpression the SpEL key expression; for a lock of several keys, the
 * expressions of {@code keyExpressions} as one text, for messages
 * @param waitTime the wait time, or {@code null} for the default of the lock's name
 * @param leaseMode where the lease time comes from
 * @param leaseTime the lease time of a {@link LeaseMode#FIXED} lease, {@code null}
 * otherwise
 * @param minHoldTime how long the lock is kept at least, or {@code null} for the default
 * of the lock's name
 * @param failurePolicy what to do when the lock is not acquired or Redis is unavailable
 * @param name the logical name of the lock, the tag of its meters
 * @param mode how the lock is shared: exclusive, or the read or write side of a
 * read-write lock
 * @param permits how many holders the key admits at once: 1 for a lock, more for a
 * semaphore
 * @param keyExpressions the SpEL expressions of the keys of a lock of several keys
 * ({@link dev.distlock.DistributedLock#keys()}), locked all or nothing; empty for a lock
 * of one key
 * @param release when the lock is released if the method joins a caller's transaction;
 * {@link LockRelease#DEFAULT} for the property {@code distlock.release}
 */
public record LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime, LeaseMode leaseMode,
		@Nullable Duration leaseTime, @Nullable Duration minHoldTime, LockFailurePolicy failurePolicy, String name,
		LockMode mode, int permits, List<String> keyExpressions, LockRelease release) {

	/**
	 * Creates a definition, checking that a lease time is given exactly for a fixed
	 * lease, and that a semaphore's permits are at least one and its mode exclusive.
	 * @param method the annotated method
	 * @param keyExpression the SpEL key expression
	 * @param waitTime the wait time, or {@code null} for the default
	 * @param leaseMode where the lease time comes from
	 * @param leaseTime the lease time of a fixed lease
	 * @param minHoldTime the minimum hold time, or {@code null} for the default
	 * @param failurePolicy what to do when the lock cannot be taken
	 * @param name the logical name of the lock
	 * @param mode how the lock is shared
	 * @param permits how many holders the key admits at once
	 * @param keyExpressions the key expressions of a lock of several keys, or empty
	 * @param release when the lock is released if the method joins a caller's transaction
	 */
	public LockDefinition {
		Assert.isTrue((leaseMode == LeaseMode.FIXED) == (leaseTime != null),
				() -> "leaseTime must be given for a FIXED lease only, was " + leaseTime + " for " + leaseMode);
		Assert.isTrue(minHoldTime == null || !minHoldTime.isNegative(),
				() -> "minHoldTime must not be negative, was " + minHoldTime);
		Assert.hasText(name, "name must not be blank");
		Assert.notNull(mode, "mode must not be null");
		Assert.isTrue(permits > 0, () -> "permits must be at least 1, was " + permits);
		Assert.isTrue(permits == 1 || mode == LockMode.EXCLUSIVE,
				() -> "a semaphore (permits " + permits + ") has no " + mode + " mode");
		keyExpressions = List.copyOf(keyExpressions);
		Assert.notNull(release, "release must not be null");
	}

	/**
	 * Creates a definition released as {@code distlock.release} says
	 * ({@link LockRelease#DEFAULT}).
	 * @param method the annotated method
	 * @param keyExpression the SpEL key expression
	 * @param waitTime the wait time, or {@code null} for the default
	 * @param leaseMode where the lease time comes from
	 * @param leaseTime the lease time of a fixed lease
	 * @param minHoldTime the minimum hold time, or {@code null} for the default
	 * @param failurePolicy what to do when the lock cannot be taken
	 * @param name the logical name of the lock
	 * @param mode how the lock is shared
	 * @param permits how many holders the key admits at once
	 * @param keyExpressions the key expressions of a lock of several keys, or empty
	 */
	public LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime, LeaseMode leaseMode,
			@Nullable Duration leaseTime, @Nullable Duration minHoldTime, LockFailurePolicy failurePolicy, String name,
			LockMode mode, int permits, List<String> keyExpressions) {
		this(method, keyExpression, waitTime, leaseMode, leaseTime, minHoldTime, failurePolicy, name, mode, permits,
				keyExpressions, LockRelease.DEFAULT);
	}

	/**
	 * Creates the definition of an exclusive lock of one key.
	 * @param method the annotated method
	 * @param keyExpression the SpEL key expression
	 * @param waitTime the wait time, or {@code null} for the default
	 * @param leaseMode where the lease time comes from
	 * @param leaseTime the lease time of a fixed lease
	 * @param minHoldTime the minimum hold time, or {@code null} for the default
	 * @param failurePolicy what to do when the lock cannot be taken
	 * @param name the logical name of the lock
	 */
	public LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime, LeaseMode leaseMode,
			@Nullable Duration leaseTime, @Nullable Duration minHoldTime, LockFailurePolicy failurePolicy,
			String name) {
		this(method, keyExpression, waitTime, leaseMode, leaseTime, minHoldTime, failurePolicy, name,
				LockMode.EXCLUSIVE, 1, List.of());
	}

	/**
	 * Creates a definition named after its method ({@link #defaultName(Method)}).
	 * @param method the annotated method
	 * @param keyExpression the SpEL key expression
	 * @param waitTime the wait time, or {@code null} for the default
	 * @param leaseMode where the lease time comes from
	 * @param leaseTime the lease time of a fixed lease
	 * @param minHoldTime the minimum hold time, or {@code null} for the default
	 * @param failurePolicy what to do when the lock cannot be taken
	 */
	public LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime, LeaseMode leaseMode,
			@Nullable Duration leaseTime, @Nullable Duration minHoldTime, LockFailurePolicy failurePolicy) {
		this(method, keyExpression, waitTime, leaseMode, leaseTime, minHoldTime, failurePolicy, defaultName(method));
	}

	/**
	 * Returns whether this lock takes several keys, all or nothing.
	 * @return whether {@link #keyExpressions()} are given
	 */
	public boolean isMultiKey() {
		return !this.keyExpressions.isEmpty();
	}

	/**
	 * Returns the name of a lock whose annotation gives none: the simple name of the
	 * method's declaring class, a dot and the method name.
	 * @param method the annotated method
	 * @return the name, such as {@code "StockService.decrement"}
	 */
	public static String defaultName(Method method) {
		return method.getDeclaringClass().getSimpleName() + "." + method.getName();
	}

	/**
	 * Returns the options of this lock, taking what it leaves open from the defaults of
	 * its name; its mode and permits are always its own.
	 * @param defaults the client's options for the lock's name
	 * ({@link dev.distlock.LockClient#defaultOptions(String)})
	 * @return the options to acquire with
	 */
	public LockOptions options(LockOptions defaults) {
		LockOptions options = (this.waitTime != null) ? defaults.withWaitTime(this.waitTime) : defaults;
		options = switch (this.leaseMode) {
			case DEFAULT -> options;
			case FIXED -> options.withLeaseTime(this.leaseTime);
			case AUTO_RENEW -> options.withLeaseTime(null);
		};
		options = (this.minHoldTime != null) ? options.withMinHoldTime(this.minHoldTime) : options;
		// permits first: the defaults may not carry a mode that forbids them
		return options.withMode(LockMode.EXCLUSIVE).withPermits(this.permits).withMode(this.mode);
	}

	/**
	 * Where the lease time of a lock comes from.
	 */
	public enum LeaseMode {

		/**
		 * The client's options for the lock's name decide, fixed or auto-renewing.
		 */
		DEFAULT,

		/**
		 * A fixed lease given by the annotation.
		 */
		FIXED,

		/**
		 * The lease is renewed while the method runs
		 * ({@link dev.distlock.DistributedLock#AUTO_RENEW}).
		 */
		AUTO_RENEW

	}

}
