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

package dev.distlock.redis.protocol;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import dev.distlock.DistributedLockConfigurationException;

/**
 * Names distlock's own keys and channels, in the reserved namespace
 * {@code <prefix>distlock:}. On a cluster, each of a lock's own keys carries the hash tag
 * of the lock's slot ({@link ClusterSlotTags}), {@code <prefix>distlock:{<tag>}:}, so
 * that a script can touch them with the lock's key; so do the sharded release channels,
 * which then stay on the slot's shard, and the health checks' keys of each master.
 */
final class ReservedNames {

	private final String namespace;

	private final int prefixLength;

	private final boolean cluster;

	/**
	 * Creates the names of a client.
	 * @param prefix the key prefix, may be empty
	 * @param reserved the reserved namespace after the prefix
	 * @param cluster whether Redis is a cluster
	 * @throws DistributedLockConfigurationException if, on a cluster, the prefix opens a
	 * hash tag it does not fill and close, which would put a lock's keys into different
	 * slots
	 */
	ReservedNames(String prefix, String reserved, boolean cluster) {
		int open = prefix.indexOf('{');
		if (cluster && open >= 0 && prefix.indexOf('}', open) <= open + 1) {
			throw new DistributedLockConfigurationException("distlock.key-prefix \"" + prefix + "\" opens a Redis "
					+ "Cluster hash tag with '{' that it does not fill and close, so a lock's keys would fall into "
					+ "different slots",
					"Remove the '{' from distlock.key-prefix, or close the tag, for example "
							+ "\"{app}:\" to keep every lock in one slot.");
		}
		this.namespace = prefix + reserved;
		this.prefixLength = prefix.length();
		this.cluster = cluster;
	}

	/**
	 * Returns the start of a lock's own keys: on a cluster, in the lock's slot. One
	 * fencing counter serves all the locks under the same start, so the number of counter
	 * keys stays bounded (one on a single server, at most one per hash slot on a cluster)
	 * however many lock keys are used.
	 * @param lockKey the Redis key of the lock
	 * @return {@code <prefix>distlock:}, or on a cluster
	 * {@code <prefix>distlock:{<tag>}:}
	 */
	String own(String lockKey) {
		return this.cluster ? inSlot(ClusterSlotHashUtil.calculateSlot(lockKey)) : this.namespace;
	}

	/**
	 * Returns the name of one of a lock's own keys that is kept per lock.
	 * @param kind what the key holds, such as {@code queue}
	 * @param lockKey the Redis key of the lock
	 * @return {@code <own><kind>:<key without prefix>}
	 */
	String perLock(String kind, String lockKey) {
		return own(lockKey) + kind + ":" + lockKey.substring(this.prefixLength);
	}

	/**
	 * Returns a name in the reserved namespace.
	 * @param name the name after the namespace
	 * @return {@code <prefix>distlock:<name>}
	 */
	String reserved(String name) {
		return this.namespace + name;
	}

	/**
	 * Returns a name in the reserved namespace and a slot.
	 * @param name the name after the slot's hash tag
	 * @param slot the slot, 0 to 16383
	 * @return {@code <prefix>distlock:{<tag>}:<name>}
	 */
	String inSlot(String name, int slot) {
		return inSlot(slot) + name;
	}

	/**
	 * Returns whether a channel carries a slot's hash tag, as sharded release channels
	 * do.
	 * @param channel a channel of this namespace
	 * @return whether the channel is in a slot
	 */
	boolean isInSlot(String channel) {
		return channel.startsWith(this.namespace + "{");
	}

	/**
	 * Returns whether Redis is a cluster, where a lock's own keys share its slot.
	 * @return whether Redis is a cluster
	 */
	boolean isCluster() {
		return this.cluster;
	}

	private String inSlot(int slot) {
		return this.namespace + "{" + ClusterSlotTags.tagOf(slot) + "}:";
	}

}
