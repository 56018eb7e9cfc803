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

package dev.distlock.redis.monitor;

/**
 * What a Redis server does when its memory runs short, as {@code INFO memory} tells: its
 * {@code maxmemory} and {@code maxmemory-policy}. Every lock key has a TTL, so a
 * {@code volatile-*} policy evicts lock keys before any key without one, and an
 * {@code allkeys-*} policy may evict them too: an evicted lock is free for another client
 * while its holder still runs. Only {@code noeviction} (Redis refuses writes instead) or
 * no memory limit keeps a lock key until its release or the end of its lease.
 *
 * @param node the server as {@code host:port} on a Redis Cluster; empty otherwise
 * @param maxmemory the memory limit in bytes; 0 for none
 * @param policy the {@code maxmemory-policy}
 */
public record EvictionPolicy(String node, long maxmemory, String policy) {

	/** The policy that never evicts. */
	public static final String NO_EVICTION = "noeviction";

	/**
	 * Returns whether the server may evict lock keys: it has a memory limit and a policy
	 * other than {@code noeviction}.
	 * @return whether lock keys may be evicted
	 */
	public boolean mayEvictLockKeys() {
		return this.maxmemory > 0 && !NO_EVICTION.equals(this.policy);
	}

	/**
	 * Says what the policy means for locks and what to do, for a log or a health detail.
	 * @return the advice
	 */
	public String advice() {
		if (!mayEvictLockKeys()) {
			return "lock keys are not evicted";
		}
		return "Redis" + (this.node.isEmpty() ? "" : " at " + this.node) + " may evict lock keys: maxmemory is "
				+ this.maxmemory + " bytes with maxmemory-policy " + this.policy + ". Every lock key has a TTL, so "
				+ "volatile-* policies evict lock keys before any key without one, and allkeys-* policies may "
				+ "evict them too; another instance can then be granted a lock that is still held (its holder "
				+ "learns it at its next renewal or release). Set maxmemory-policy noeviction on the Redis that "
				+ "holds the locks";
	}

}
