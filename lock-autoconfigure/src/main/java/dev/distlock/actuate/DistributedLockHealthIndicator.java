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

package dev.distlock.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.dao.DataAccessException;

import dev.distlock.redis.monitor.EvictionPolicy;
import dev.distlock.redis.monitor.RedisLockMonitor;

/**
 * Health of distributed locking: {@code UP} when Redis answers the lock's connection, has
 * the lock scripts (those it lost are loaded again) and lets the client lock, queue, hand
 * over and release a key of its own (every permission a lock needs), and, with pub/sub
 * waiting, the release channel is subscribed; {@code DOWN} with details otherwise, and
 * while the last lock command was refused for a misconfiguration (a missing permission,
 * wrong credentials), with what to fix. Details also give the address of Redis as
 * configured ({@code address}: {@code host:port}, the nodes of a cluster, or the master
 * name and sentinels of Sentinel), and the number of locks held and callers waiting. On a
 * Redis Cluster the locking check runs on a key of every master, so that the status is
 * {@code DOWN} while any slot has no reachable master; the script check, which asks one
 * node only, is left out there (the locking check runs the scripts on every master). With
 * sharded hand-over messages, a channel is subscribed per slot only while a caller waits
 * on that slot, so no subscription is normal: the details give the slots subscribed now,
 * those waited on but not yet subscribed, and whether the cluster pub/sub connection is
 * open, and the status is {@code DOWN} only while the client is stopped or a slot waited
 * on has stayed unsubscribed for longer than a failover takes to recover. The checks that
 * ask Redis are given a time bound of their own: {@code DOWN} if Redis has not answered
 * within it (the check goes on in the background, and no other starts before it ends),
 * whatever the command timeout. The details also show whether Redis may evict lock keys
 * ({@code maxmemoryPolicy}: its {@code maxmemory}, {@code maxmemory-policy} and
 * {@code evictsLockKeys}, per master on a cluster, with advice when it may); the status
 * stays {@code UP} then, since locking works until a key is evicted, and the client warns
 * of it at startup.
 */
public class DistributedLockHealthIndicator implements HealthIndicator {

	/** How long a health request waits for Redis by default. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	private final RedisLockMonitor monitor;

	private final BoundedRedisCheck<Map<String, Object>> redisChecks;

	/**
	 * Creates an indicator that waits for Redis at most {@link #DEFAULT_TIMEOUT}.
	 * @param monitor the monitor of the lock client, which knows its release
	 * subscription, if any
	 */
	public DistributedLockHealthIndicator(RedisLockMonitor monitor) {
		this(monitor, DEFAULT_TIMEOUT);
	}

	/**
	 * Creates an indicator.
	 * @param monitor the monitor of the lock client, which knows its release
	 * subscription, if any
	 * @param timeout how long a health request waits for Redis before it reports
	 * {@code DOWN}
	 */
	public DistributedLockHealthIndicator(RedisLockMonitor monitor, Duration timeout) {
		this.monitor = monitor;
		this.redisChecks = new BoundedRedisCheck<>(this::checkRedis, timeout);
	}

	@Override
	public Health health() {
		Health.Builder builder = Health.up().withDetail("address", this.monitor.address());
		try {
			builder.withDetails(this.redisChecks.run());
		}
		catch (TimeoutException ex) {
			builder.down().withDetail("error", String.valueOf(ex.getMessage()));
		}
		catch (RuntimeException ex) {
			builder.down(ex);
		}
		this.monitor.misconfiguration().ifPresent((fix) -> builder.down().withDetail("misconfiguration", fix));
		this.monitor.releaseSubscription().ifPresent((subscription) -> {
			boolean subscribed = subscription.isSubscribed();
			builder.withDetail("releaseSubscription",
					Map.of("channel", subscription.channel(), "subscribed", subscribed));
			if (!subscribed) {
				builder.down();
			}
		});
		this.monitor.shardedReleaseSubscription().ifPresent((sharded) -> {
			Map<String, Object> detail = new LinkedHashMap<>();
			detail.put("sharded", true);
			detail.put("running", sharded.running());
			detail.put("subscribedSlots", sharded.subscribedSlots());
			detail.put("pendingSlots", sharded.pendingSlots());
			detail.put("connected", sharded.connected());
			if (!sharded.overdueSlots().isEmpty()) {
				detail.put("overdueSlots", sharded.overdueSlots());
			}
			builder.withDetail("releaseSubscription", detail);
			if (!sharded.isHealthy()) {
				builder.down();
			}
		});
		return builder.withDetail("heldLocks", this.monitor.heldLocks().size())
			.withDetail("waiters", this.monitor.waiters().size())
			.build();
	}

	/** Asks Redis: the scripts (off a cluster), and a lock of a key of its own. */
	private Map<String, Object> checkRedis() {
		Map<String, Object> details = new LinkedHashMap<>();
		if (!this.monitor.isCluster()) {
			Map<String, String> scripts = new LinkedHashMap<>();
			this.monitor.checkScripts().forEach((name, present) -> scripts.put(name, present ? "present" : "loaded"));
			details.put("scripts", scripts);
		}
		this.monitor.checkLocking();
		details.put("locking", "ok");
		details.put("maxmemoryPolicy", evictionPolicies());
		return details;
	}

	/**
	 * Describes whether Redis may evict lock keys: one entry, or one per master on a
	 * cluster; what {@code INFO} failed with if Redis refused it (a user may lock without
	 * it).
	 */
	private Object evictionPolicies() {
		List<EvictionPolicy> policies;
		try {
			policies = this.monitor.evictionPolicies();
		}
		catch (DataAccessException ex) {
			return "unknown: INFO memory failed: " + ex.getMessage();
		}
		if (policies.size() == 1 && policies.get(0).node().isEmpty()) {
			return describe(policies.get(0));
		}
		Map<String, Object> byNode = new LinkedHashMap<>();
		policies.forEach((policy) -> byNode.put(policy.node(), describe(policy)));
		return byNode;
	}

	private static Map<String, Object> describe(EvictionPolicy policy) {
		Map<String, Object> detail = new LinkedHashMap<>();
		detail.put("maxmemory", policy.maxmemory());
		detail.put("policy", policy.policy());
		detail.put("evictsLockKeys", policy.mayEvictLockKeys());
		if (policy.mayEvictLockKeys()) {
			detail.put("advice", policy.advice());
		}
		return detail;
	}

}
