package dev.distlock.aop;

import java.lang.reflect.Method;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import dev.distlock.LockOptions;

/**
 * A parsed {@link dev.distlock.DistributedLock @DistributedLock}: placeholders resolved,
 * durations parsed, the key expression checked, the fallback method found.
 *
 * @param method the annotated method, as declared on the target class
 * @param keyExpression the SpEL key expression
 * @param waitTime the wait time, or {@code null} for the client's default
 * @param leaseMode where the lease time comes from
 * @param leaseTime the lease time of a {@link LeaseMode#FIXED} lease, {@code null} otherwise
 * @param minHoldTime how long the lock is kept at least, zero for none
 * @param failurePolicy what to do when the lock is not acquired or Redis is unavailable
 */
public record LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime, LeaseMode leaseMode,
		@Nullable Duration leaseTime, Duration minHoldTime, LockFailurePolicy failurePolicy) {

	/**
	 * Creates a definition, checking that a lease time is given exactly for a fixed lease.
	 * @param method the annotated method
	 * @param keyExpression the SpEL key expression
	 * @param waitTime the wait time, or {@code null} for the client's default
	 * @param leaseMode where the lease time comes from
	 * @param leaseTime the lease time of a fixed lease
	 * @param minHoldTime the minimum hold time
	 * @param failurePolicy what to do when the lock cannot be taken
	 */
	public LockDefinition {
		Assert.isTrue((leaseMode == LeaseMode.FIXED) == (leaseTime != null),
				() -> "leaseTime must be given for a FIXED lease only, was " + leaseTime + " for " + leaseMode);
		Assert.isTrue(!minHoldTime.isNegative(), () -> "minHoldTime must not be negative, was " + minHoldTime);
	}

	/**
	 * Returns the options of this lock, taking what it leaves open from the defaults.
	 * @param defaults the client's default options
	 * @return the options to acquire with
	 */
	public LockOptions options(LockOptions defaults) {
		LockOptions options = (this.waitTime != null) ? defaults.withWaitTime(this.waitTime) : defaults;
		options = switch (this.leaseMode) {
			case DEFAULT -> options;
			case FIXED -> options.withLeaseTime(this.leaseTime);
			case AUTO_RENEW -> options.withLeaseTime(null);
		};
		return options.withMinHoldTime(this.minHoldTime);
	}

	/**
	 * Where the lease time of a lock comes from.
	 */
	public enum LeaseMode {

		/**
		 * The client's default options decide, fixed or auto-renewing.
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
