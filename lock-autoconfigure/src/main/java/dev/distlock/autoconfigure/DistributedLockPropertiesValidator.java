package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.distlock.LockRelease;
import dev.distlock.autoconfigure.DistributedLockProperties.Renewal;
import dev.distlock.autoconfigure.DistributedLockProperties.Replication;
import dev.distlock.autoconfigure.DistributedLockProperties.RestartQuarantine;
import dev.distlock.autoconfigure.DistributedLockProperties.Waiting;

/**
 * Checks {@code distlock.*} values against the ranges that the lock client, its waiters
 * and Lettuce accept, so that an out-of-range value fails binding with a message that
 * names the property, the value and the range, rather than failing later in code that
 * names its own settings. Each object is checked where it is bound, so that Spring Boot
 * reports where each rejected value came from.
 */
final class DistributedLockPropertiesValidator implements Validator {

	/**
	 * Longest duration that can be counted in nanoseconds, as times in the lock client
	 * are.
	 */
	static final Duration LONGEST = Duration.ofDays(106751);

	private static final String PREFIX = "distlock.";

	@Override
	public boolean supports(Class<?> type) {
		return DistributedLockProperties.class.isAssignableFrom(type) || type == Renewal.class || type == Waiting.class
				|| type == Replication.class || type == NamedLockProperties.class;
	}

	@Override
	public void validate(Object target, Errors errors) {
		if (target instanceof DistributedLockProperties properties) {
			validate(properties, errors);
		}
		else if (target instanceof Renewal renewal) {
			check(errors, "lease", PREFIX + "renewal.lease", renewal.getLease(), Duration.ofMillis(3), LONGEST,
					"between 3ms and " + DurationText.of(LONGEST));
		}
		else if (target instanceof Waiting waiting) {
			validate(waiting, errors);
		}
		else if (target instanceof Replication replication) {
			validate(replication, errors);
		}
		else if (target instanceof NamedLockProperties lock) {
			validate(lock, errors);
		}
	}

	private void validate(DistributedLockProperties properties, Errors errors) {
		check(errors, "waitTime", PREFIX + "wait-time", properties.getWaitTime(), Duration.ZERO, null, "zero or more");
		Duration leaseTime = properties.getLeaseTime();
		if (leaseTime != null) {
			check(errors, "leaseTime", PREFIX + "lease-time", leaseTime, Duration.ofMillis(1), LONGEST,
					"between 1ms and " + DurationText.of(LONGEST) + ", or unset to renew leases while locks are held");
		}
		if (properties.getMaxKeyLength() < 1) {
			errors.rejectValue("maxKeyLength", "range",
					PREFIX + "max-key-length must be at least 1, but is " + properties.getMaxKeyLength());
		}
		check(errors, "maxReconnectDelay", PREFIX + "max-reconnect-delay", properties.getMaxReconnectDelay(),
				Duration.ZERO, LONGEST, "between 0 (to keep Lettuce's own backoff) and " + DurationText.of(LONGEST));
		if (properties.getRelease() == LockRelease.DEFAULT) {
			errors.rejectValue("release", "value", PREFIX
					+ "release must be on-return or after-transaction: default is for the annotation, where it means "
					+ "this property");
		}
		validate(properties.getRestartQuarantine(), properties, errors);
	}

	/**
	 * Checks the quarantine's duration against the longest lease the properties give,
	 * which it must not be shorter than.
	 */
	private void validate(RestartQuarantine quarantine, DistributedLockProperties properties, Errors errors) {
		Duration duration = quarantine.getDuration();
		if (!quarantine.isEnabled() || duration == null) {
			return;
		}
		Map.Entry<String, Duration> longest = properties.longestConfiguredLease();
		if (duration.compareTo(longest.getValue()) < 0 || duration.compareTo(LONGEST) > 0) {
			errors.rejectValue("restartQuarantine.duration", "range",
					PREFIX + "restart-quarantine.duration must be at least the longest lease, " + longest.getKey()
							+ " (" + DurationText.of(longest.getValue()) + "), and at most " + DurationText.of(LONGEST)
							+ ", so that a hold granted before Redis lost its data runs out before the key is granted "
							+ "again, but is " + DurationText.of(duration)
							+ ". Leave it unset to use the longest lease.");
		}
	}

	private void validate(Waiting waiting, Errors errors) {
		int passes = waiting.getMaxLocalPasses();
		if (passes < 0 || passes > 999) {
			errors.rejectValue("maxLocalPasses", "range",
					PREFIX + "waiting.max-local-passes must be between 0 " + "and 999, but is " + passes);
		}
		Duration initial = waiting.getInitialBackoff();
		check(errors, "initialBackoff", PREFIX + "waiting.initial-backoff", initial, Duration.ofNanos(1), LONGEST,
				"more than zero and at most " + DurationText.of(LONGEST));
		if (!initial.isNegative() && !initial.isZero() && initial.compareTo(LONGEST) <= 0) {
			check(errors, "maxBackoff", PREFIX + "waiting.max-backoff", waiting.getMaxBackoff(), initial, LONGEST,
					"between " + PREFIX + "waiting.initial-backoff (" + DurationText.of(initial) + ") and "
							+ DurationText.of(LONGEST));
		}
	}

	private void validate(Replication replication, Errors errors) {
		int replicas = replication.getMinReplicasAcked();
		if (replicas < 0) {
			errors.rejectValue("minReplicasAcked", "range", PREFIX
					+ "replication.min-replicas-acked must be 0 (no acknowledgement) or more, but is " + replicas);
		}
		if (replicas > 0) {
			check(errors, "ackTimeout", PREFIX + "replication.ack-timeout", replication.getAckTimeout(),
					Duration.ofMillis(1), LONGEST, "between 1ms and " + DurationText.of(LONGEST) + " when " + PREFIX
							+ "replication.min-replicas-acked is set (WAIT with 0 would block forever)");
		}
	}

	/**
	 * Checks the settings of one lock, bound under the object name
	 * {@code distlock.locks.<name>}.
	 */
	private void validate(NamedLockProperties lock, Errors errors) {
		String prefix = errors.getObjectName() + ".";
		Duration waitTime = lock.getWaitTime();
		if (waitTime != null) {
			check(errors, "waitTime", prefix + "wait-time", waitTime, Duration.ZERO, null, "zero or more");
		}
		Duration leaseTime = lock.getLeaseTime();
		if (leaseTime != null && !leaseTime.equals(NamedLockProperties.AUTO_RENEW)) {
			check(errors, "leaseTime", prefix + "lease-time", leaseTime, Duration.ofMillis(1), LONGEST,
					"between 1ms and " + DurationText.of(LONGEST)
							+ ", or -1 to renew the lease while the lock is held");
		}
		Duration minHoldTime = lock.getMinHoldTime();
		if (minHoldTime != null) {
			check(errors, "minHoldTime", prefix + "min-hold-time", minHoldTime, Duration.ZERO, LONGEST,
					"between 0 and " + DurationText.of(LONGEST));
		}
	}

	/**
	 * Rejects the value of a field if it is outside {@code [min, max]}.
	 * @param field the Java name of the field in the object being checked, as Spring Boot
	 * reports it
	 * @param property the full property name
	 */
	private static void check(Errors errors, String field, String property, Duration value, Duration min,
			@Nullable Duration max, String range) {
		if (value.compareTo(min) < 0 || (max != null && value.compareTo(max) > 0)) {
			errors.rejectValue(field, "range", property + " must be " + range + ", but is " + DurationText.of(value));
		}
	}

}
