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
import dev.distlock.InvalidLockKeyException;
import dev.distlock.support.LockKeyRules;

/**
 * Names every key and channel distlock touches, all under one prefix: the Redis key of
 * each lock ({@code <prefix><key>}), checked ({@link LockKeyRules}) so that none falls
 * into the reserved namespace {@code <prefix>distlock:}, and distlock's own keys and
 * channels in that namespace, which on a cluster carry a hash tag that puts them in the
 * slot of their lock.
 */
public final class LockKeyspace {

	private final LockKeyRules rules;

	private final ReservedNames names;

	/**
	 * Creates the keyspace of a client.
	 * @param prefix prepended to every key and channel, may be empty
	 * @param cluster whether Redis is a cluster, where a lock's own keys share its slot
	 * @param maxKeyLength the longest lock key accepted, in characters, without prefix
	 * @throws DistributedLockConfigurationException if, on a cluster, the prefix opens a
	 * hash tag it does not fill and close
	 */
	public LockKeyspace(String prefix, boolean cluster, int maxKeyLength) {
		this.names = new ReservedNames(prefix, LockKeyRules.RESERVED, cluster);
		this.rules = new LockKeyRules(prefix, maxKeyLength);
	}

	/**
	 * Returns the Redis key of a lock.
	 * @param key the key as given by the caller
	 * @return the key after the prefix
	 * @throws InvalidLockKeyException if the key is blank, too long, or in the reserved
	 * namespace
	 */
	public String lockKey(String key) {
		return this.rules.lockKey(key);
	}

	/**
	 * Returns the key of the fencing counter that grants tokens to a lock. One counter
	 * serves many locks: every grant of any of them takes the next value, so each lock's
	 * tokens still increase strictly.
	 * @param lockKey the Redis key of the lock
	 * @return the counter key
	 */
	public String fenceKey(String lockKey) {
		return this.names.own(lockKey) + "fence";
	}

	/**
	 * Returns the key of the restart quarantine of the slot of a lock: while it exists,
	 * no lock of the slot is granted. It holds the end of the quarantine in ms by the
	 * server's clock, and expires then ({@link RestartQuarantine}).
	 * @param lockKey the Redis key of the lock
	 * @return the quarantine key, in the slot of the fencing counter
	 */
	public String quarantineKey(String lockKey) {
		return this.names.own(lockKey) + "quarantine";
	}

	/**
	 * Returns the key of a lock's queue: the owner tokens of its waiters in arrival
	 * order. It exists only while someone waits.
	 * @param lockKey the Redis key of the lock
	 * @return the queue key
	 */
	public String queueKey(String lockKey) {
		return this.names.perLock("queue", lockKey);
	}

	/**
	 * Returns the key of the entries of a lock's waiters, which exists only while someone
	 * waits: per owner token, until when its place is valid, its claim window, its block
	 * of tokens, and the channel to tell it on ({@code PUBLISH}, or {@code SPUBLISH} on a
	 * {@link #shardedReleaseChannel(String, int) sharded channel}).
	 * @param lockKey the Redis key of the lock
	 * @return the entries key
	 */
	public String waitersKey(String lockKey) {
		return this.names.perLock("waiters", lockKey);
	}

	/**
	 * Returns the channel on which releases tell a client's waiters they got a lock.
	 * @param clientId the client's id
	 * @return the channel
	 */
	public String releaseChannel(String clientId) {
		return this.names.reserved("released:" + clientId);
	}

	/**
	 * Returns the sharded channel, in one cluster slot, on which releases of that slot's
	 * locks tell a client's waiters they got a lock, with {@code SPUBLISH}.
	 * @param clientId the client's id
	 * @param slot the cluster slot of the locks
	 * @return the channel, {@code <prefix>distlock:{<tag>}:released:<clientId>}
	 */
	public String shardedReleaseChannel(String clientId, int slot) {
		return this.names.inSlot("released:" + clientId, slot);
	}

	/**
	 * Returns whether a release channel is sharded: releases {@code SPUBLISH} on it.
	 * @param channel a release channel of this keyspace
	 * @return whether the channel is sharded
	 */
	public boolean isShardedChannel(String channel) {
		return this.names.isInSlot(channel);
	}

	/**
	 * Returns the key that health checks lock, to exercise a real lock's permissions.
	 * @param clientId the client's id
	 * @return the Redis key of the health check's lock
	 */
	public String healthKey(String clientId) {
		return this.names.reserved("health:" + clientId);
	}

	/**
	 * Returns the key that health checks lock in one slot, to exercise one master.
	 * @param clientId the client's id
	 * @param slot the slot, 0 to 16383
	 * @return the Redis key of the health check's lock in that slot
	 */
	public String healthKey(String clientId, int slot) {
		return this.names.inSlot("health:" + clientId, slot);
	}

	/**
	 * Returns whether Redis is a cluster, where a lock's own keys share its slot.
	 * @return whether Redis is a cluster
	 */
	public boolean isCluster() {
		return this.names.isCluster();
	}

	/**
	 * Returns the Redis Cluster slot of a key.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	public static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
	}

}
