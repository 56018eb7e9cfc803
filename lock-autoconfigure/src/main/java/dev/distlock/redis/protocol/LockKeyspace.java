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

import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.ClusterSlotHashUtil;

import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.InvalidLockKeyException;
import dev.distlock.support.LockKeyRules;

/**
 * Names every key and channel distlock touches, all under one prefix: the Redis key of
 * each lock ({@code <prefix><key>}), checked ({@link LockKeyRules}) so that none falls
 * into the reserved namespace {@code <prefix>distlock:}, and distlock's own keys and
 * channels in that namespace. On a cluster, each of a lock's own keys carries the hash
 * tag of the lock's slot, {@code <prefix>distlock:{<tag>}:}, so that a script can touch
 * them with the lock's key; so do the sharded release channels, which then stay on the
 * slot's shard, and the health checks' keys of each master.
 */
public final class LockKeyspace {

	private final LockKeyRules rules;

	/** The reserved namespace, {@code <prefix>distlock:}. */
	private final String namespace;

	private final int prefixLength;

	private final boolean cluster;

	/**
	 * Creates the keyspace of a client.
	 * @param prefix prepended to every key and channel, may be empty
	 * @param cluster whether Redis is a cluster, where a lock's own keys share its slot
	 * @param maxKeyLength the longest lock key accepted, in characters, without prefix
	 * @throws DistributedLockConfigurationException if, on a cluster, the prefix opens a
	 * hash tag it does not fill and close, which would put a lock's keys into different
	 * slots
	 */
	public LockKeyspace(String prefix, boolean cluster, int maxKeyLength) {
		int open = prefix.indexOf('{');
		if (cluster && open >= 0 && prefix.indexOf('}', open) <= open + 1) {
			throw new DistributedLockConfigurationException("distlock.key-prefix \"" + prefix + "\" opens a Redis "
					+ "Cluster hash tag with '{' that it does not fill and close, so a lock's keys would fall into "
					+ "different slots",
					"Remove the '{' from distlock.key-prefix, or close the tag, for example "
							+ "\"{app}:\" to keep every lock in one slot.");
		}
		this.namespace = prefix + LockKeyRules.RESERVED;
		this.prefixLength = prefix.length();
		this.cluster = cluster;
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
	 * Returns the keys of the acquire and release scripts of a lock, in the order the
	 * scripts read them: the lock, its fencing counter, its queue, its waiters' entries,
	 * and the restart quarantine's key if there is a quarantine.
	 * @param lockKey the Redis key of the lock
	 * @param quarantine whether a restart quarantine is on
	 * @return the keys, all in the lock's hash slot
	 */
	public List<String> scriptKeys(String lockKey, boolean quarantine) {
		List<String> keys = new ArrayList<>(5);
		keys.add(lockKey);
		keys.add(fenceKey(lockKey));
		keys.add(queueKey(lockKey));
		keys.add(waitersKey(lockKey));
		if (quarantine) {
			keys.add(quarantineKey(lockKey));
		}
		return keys;
	}

	/**
	 * Returns the key of the fencing counter that grants tokens to a lock. One counter
	 * serves many locks: every grant of any of them takes the next value, so each lock's
	 * tokens still increase strictly.
	 * @param lockKey the Redis key of the lock
	 * @return the counter key
	 */
	public String fenceKey(String lockKey) {
		return own(lockKey) + "fence";
	}

	/**
	 * Returns the key of the restart quarantine of the slot of a lock: while it exists,
	 * no lock of the slot is granted. It holds the end of the quarantine in ms by the
	 * server's clock, and expires then ({@link RestartQuarantine}).
	 * @param lockKey the Redis key of the lock
	 * @return the quarantine key, in the slot of the fencing counter
	 */
	public String quarantineKey(String lockKey) {
		return own(lockKey) + "quarantine";
	}

	/**
	 * Returns the key of a lock's queue: the owner tokens of its waiters in arrival
	 * order. It exists only while someone waits.
	 * @param lockKey the Redis key of the lock
	 * @return the queue key
	 */
	public String queueKey(String lockKey) {
		return perLock("queue", lockKey);
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
		return perLock("waiters", lockKey);
	}

	/**
	 * Returns the channel on which releases tell a client's waiters they got a lock.
	 * @param clientId the client's id
	 * @return the channel
	 */
	public String releaseChannel(String clientId) {
		return this.namespace + "released:" + clientId;
	}

	/**
	 * Returns the sharded channel, in one cluster slot, on which releases of that slot's
	 * locks tell a client's waiters they got a lock, with {@code SPUBLISH}.
	 * @param clientId the client's id
	 * @param slot the cluster slot of the locks
	 * @return the channel, {@code <prefix>distlock:{<tag>}:released:<clientId>}
	 */
	public String shardedReleaseChannel(String clientId, int slot) {
		return inSlot("released:" + clientId, slot);
	}

	/**
	 * Returns the channel on which each RedLock node announces that a lock was released
	 * there, so that the waiters of every client wake up and try again. One channel per
	 * lock, since RedLock waiters have no queue in Redis that a release could hand over
	 * to.
	 * @param lockKey the Redis key of the lock
	 * @return the channel, {@code <prefix>distlock:unlocked:<key without prefix>}
	 */
	public String unlockedChannel(String lockKey) {
		return perLock("unlocked", lockKey);
	}

	/**
	 * Returns whether a release channel is sharded: releases {@code SPUBLISH} on it.
	 * @param channel a release channel of this keyspace
	 * @return whether the channel is sharded
	 */
	public boolean isShardedChannel(String channel) {
		return channel.startsWith(this.namespace + "{");
	}

	/**
	 * Returns the key that health checks lock, to exercise a real lock's permissions.
	 * @param clientId the client's id
	 * @return the Redis key of the health check's lock
	 */
	public String healthKey(String clientId) {
		return this.namespace + "health:" + clientId;
	}

	/**
	 * Returns the key that health checks lock in one slot, to exercise one master.
	 * @param clientId the client's id
	 * @param slot the slot, 0 to 16383
	 * @return the Redis key of the health check's lock in that slot
	 */
	public String healthKey(String clientId, int slot) {
		return inSlot("health:" + clientId, slot);
	}

	/**
	 * Returns whether Redis is a cluster, where a lock's own keys share its slot.
	 * @return whether Redis is a cluster
	 */
	public boolean isCluster() {
		return this.cluster;
	}

	/**
	 * Returns the Redis Cluster slot of a key.
	 * @param key the key
	 * @return the slot, 0 to 16383
	 */
	public static int slot(String key) {
		return ClusterSlotHashUtil.calculateSlot(key);
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
	private String own(String lockKey) {
		return this.cluster ? inSlot(slot(lockKey)) : this.namespace;
	}

	/**
	 * Returns the name of one of a lock's own keys that is kept per lock.
	 * @param kind what the key holds, such as {@code queue}
	 * @param lockKey the Redis key of the lock
	 * @return {@code <own><kind>:<key without prefix>}
	 */
	private String perLock(String kind, String lockKey) {
		return own(lockKey) + kind + ":" + lockKey.substring(this.prefixLength);
	}

	/**
	 * Returns a name in the reserved namespace and a slot.
	 * @param name the name after the slot's hash tag
	 * @param slot the slot, 0 to 16383
	 * @return {@code <prefix>distlock:{<tag>}:<name>}
	 */
	private String inSlot(String name, int slot) {
		return inSlot(slot) + name;
	}

	private String inSlot(int slot) {
		return this.namespace + "{" + SlotTags.TAGS[slot] + "}:";
	}

	/**
	 * One short hash tag per Redis Cluster slot, so that a lock's own keys can be put in
	 * the lock's slot: found once, on first use on a cluster, by trying "0", "1", "2",
	 * ... in base 36 until every slot has one.
	 */
	private static final class SlotTags {

		private static final String[] TAGS = new String[ClusterSlotHashUtil.SLOT_COUNT];

		static {
			int found = 0;
			for (int i = 0; found < TAGS.length; i++) {
				String tag = Integer.toString(i, 36);
				int slot = ClusterSlotHashUtil.calculateSlot(tag);
				if (TAGS[slot] == null) {
					TAGS[slot] = tag;
					found++;
				}
			}
		}

		private SlotTags() {
		}

	}

}
