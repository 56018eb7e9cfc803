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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.distlock.LockRelease;
import dev.distlock.autoconfigure.DistributedLockProperties.Renewal;
import dev.distlock.autoconfigure.DistributedLockProperties.Replication;
import dev.distlock.autoconfigure.DistributedLockProperties.RestartQuarantine;
import dev.distlock.autoconfigure.DistributedLockProperties.Waiting;
import dev.distlock.redlock.RedLockNodeAddresses;

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
		if (properties.getStore() == DistributedLockProperties.Store.REDLOCK) {
			validate(properties.getRedlock(), properties, errors);
		}
	}

	/**
	 * Checks the RedLock nodes and timings, with {@code distlock.store=redlock}: at least
	 * three nodes, each a valid Redis URL of a different server, and a node timeout well
	 * below the shortest lease.
	 */
	private void validate(DistributedLockProperties.RedLock redlock, DistributedLockProperties properties,
			Errors errors) {
		String prefix = PREFIX + "redlock.";
		List<String> nodes = redlock.getNodes();
		if (nodes.size() < 3) {
			errors.rejectValue("redlock.nodes", "size", prefix + "nodes must list at least 3 independent Redis "
					+ "masters with distlock.store=redlock (a majority of them holds each lock), but lists "
					+ nodes.size() + ". Add nodes (5 is usual), or use distlock.store=redis for a single server.");
		}
		Map<String, Integer> servers = new HashMap<>();
		for (int i = 0; i < nodes.size(); i++) {
			String server = RedLockNodeAddresses.server(nodes.get(i));
			if (server == null) {
				errors.rejectValue("redlock.nodes", "url", prefix + "nodes[" + i + "] must be a Redis URL such as "
						+ "redis://host:6379 or rediss://host:6380, but is '" + nodes.get(i) + "'");
				continue;
			}
			Integer earlier = servers.putIfAbsent(server, i);
			if (earlier != null) {
				errors.rejectValue("redlock.nodes", "duplicate",
						prefix + "nodes[" + i + "] and " + prefix + "nodes[" + earlier + "] name the same server ("
								+ server + "): each node must be an independent Redis master, or one server "
								+ "would count twice towards the majority. Remove one of them.");
			}
		}
		check(errors, "redlock.driftMargin", prefix + "drift-margin", redlock.getDriftMargin(), Duration.ZERO, LONGEST,
				"between 0 and " + DurationText.of(LONGEST));
		Duration nodeTimeout = redlock.getNodeTimeout();
		check(errors, "redlock.nodeTimeout", prefix + "node-timeout", nodeTimeout, Duration.ofMillis(1), LONGEST,
				"between 1ms and " + DurationText.of(LONGEST));
		Map.Entry<String, Duration> shortest = shortestConfiguredLease(properties);
		if (nodeTimeout.multipliedBy(10).compareTo(shortest.getValue()) > 0) {
			errors.rejectValue("redlock.nodeTimeout", "range",
					prefix + "node-timeout must be at most a tenth of the shortest lease, " + shortest.getKey() + " ("
							+ DurationText.of(shortest.getValue()) + "), since a grant is valid only for the lease "
							+ "minus the time its round trips to the nodes took, but is " + DurationText.of(nodeTimeout)
							+ ". Lower the node timeout or lengthen the lease.");
		}
	}

	/**
	 * Returns the shortest lease the properties give a lock, and the property that gives
	 * it: the renewal lease, the default lease time, or a named lock's lease time.
	 */
	private static Map.Entry<String, Duration> shortestConfiguredLease(DistributedLockProperties properties) {
		Map.Entry<String, Duration> shortest = Map.entry(PREFIX + "renewal.lease", properties.getRenewal().getLease());
		Duration leaseTime = properties.getLeaseTime();
		if (leaseTime != null && leaseTime.compareTo(shortest.getValue()) < 0) {
			shortest = Map.entry(PREFIX + "lease-time", leaseTime);
		}
		for (Map.Entry<String, NamedLockProperties> lock : properties.getLocks().entrySet()) {
			Duration lease = lock.getValue().getLeaseTime();
			if (lease != null && !NamedLockProperties.AUTO_RENEW.equals(lease)
					&& lease.compareTo(shortest.getValue()) < 0) {
				shortest = Map.entry(PREFIX + "locks[" + lock.getKey() + "].lease-time", lease);
			}
		}
		return shortest;
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
