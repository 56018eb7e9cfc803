package dev.distlock.aop;

import java.lang.reflect.Method;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockOptions;

/**
 * A parsed {@link dev.distlock.DistributedLock @DistributedLock}: placeholders resolved,
 * durations parsed, the key expression checked.
 *
 * @param method the annotated method, as declared on the target class
 * @param keyExpression the SpEL key expression
 * @param waitTime the wait time, or {@code null} for the client's default
 * @param leaseTime the lease time, or {@code null} for the client's default
 */
public record LockDefinition(Method method, String keyExpression, @Nullable Duration waitTime,
		@Nullable Duration leaseTime) {

	/**
	 * Returns the options of this lock, taking what it leaves open from the defaults.
	 * @param defaults the client's default options
	 * @return the options to acquire with
	 */
	public LockOptions options(LockOptions defaults) {
		LockOptions options = defaults;
		if (this.waitTime != null) {
			options = options.withWaitTime(this.waitTime);
		}
		if (this.leaseTime != null) {
			options = options.withLeaseTime(this.leaseTime);
		}
		return options;
	}

}
