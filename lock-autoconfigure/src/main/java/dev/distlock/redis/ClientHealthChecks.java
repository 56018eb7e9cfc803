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

package dev.distlock.redis;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.messages.ReleaseSubscription;
import dev.distlock.redis.messages.ShardedReleaseSubscription;
import dev.distlock.redis.monitor.EvictionPolicy;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.monitor.ReleaseSubscriptionStatus;
import dev.distlock.redis.monitor.ShardedSubscriptionState;
import dev.distlock.redis.protocol.RedisLockCommands;

/**
 * What the health check of a client asks through {@link RedisLockMonitor}: whether Redis
 * has the lock scripts, whether it is a cluster, whether a lock can be taken, whether
 * Redis may evict lock keys, the state of the client's release-message subscriptions, and
 * what to fix after Redis refused a lock command for a reason that retrying does not
 * cure.
 */
final class ClientHealthChecks {

	private final RedisLockCommands commands;

	private final LockingProbe probe;

	private final @Nullable ReleaseSubscription subscription;

	private final @Nullable ShardedReleaseSubscription sharded;

	ClientHealthChecks(RedisLockCommands commands, LockingProbe probe, @Nullable ReleaseSubscription subscription,
			@Nullable ShardedReleaseSubscription sharded) {
		this.commands = commands;
		this.probe = probe;
		this.subscription = subscription;
		this.sharded = sharded;
	}

	/** Loads the lock scripts Redis lost; per script, whether Redis already had it. */
	Map<String, Boolean> checkScripts() {
		return this.commands.monitoring().loadScripts();
	}

	/** Reads the eviction policy of each Redis server that holds locks. */
	List<EvictionPolicy> evictionPolicies() {
		return this.commands.monitoring().evictionPolicies();
	}

	/** Returns whether Redis is a cluster. */
	String address() {
		return this.commands.address();
	}

	boolean isCluster() {
		return this.commands.keyspace().isCluster();
	}

	/**
	 * Takes, queues for, hands over and releases a key of the client's own; on a cluster,
	 * on every master, each on a key in a slot of that master as the client sees the
	 * cluster.
	 */
	void checkLocking() {
		this.probe.run();
	}

	/** Returns the subscription to the one release channel, if there is one. */
	Optional<ReleaseSubscriptionStatus> releaseSubscription() {
		return Optional.ofNullable(this.subscription);
	}

	/** Returns the state of the sharded release subscriptions, if there are some. */
	Optional<ShardedSubscriptionState> shardedReleaseSubscription() {
		return Optional.ofNullable(this.sharded).map(ShardedReleaseSubscription::state);
	}

	/** Returns what to fix after Redis refused the last lock command, if anything. */
	Optional<String> misconfiguration() {
		return Optional.ofNullable(this.commands.reachability().misconfiguration());
	}

}
