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

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.dao.DataAccessException;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockUnavailableException;

/**
 * What a {@link dev.distlock.redis.RedisLockClient} holds and waits for, for the actuator
 * endpoint and health check: its held locks and waiting callers (read from memory), the
 * state of a key in Redis, a check that Redis has the lock scripts, whether Redis may
 * evict lock keys, and releasing a lock of this client by force. Owner tokens never leave
 * it.
 */
public interface RedisLockMonitor {

	/**
	 * Returns the locks the client holds now, on any thread; no Redis command is sent.
	 * @return the held locks
	 */
	List<HeldLockInfo> heldLocks();

	/**
	 * Returns the callers waiting for a lock another holder has, read from memory.
	 * @return the waiting callers
	 */
	List<LockWaiterInfo> waiters();

	/**
	 * Reads the state of a key in Redis in one round trip: whether it exists, its time to
	 * live, and whether a lock of this client holds it. The owner token is compared in
	 * Redis and never read back.
	 * @param key the Redis key, including the client's key prefix
	 * @return the state of the key
	 * @throws LockMisconfigurationException if Redis refuses the inspection, such as for
	 * a missing permission
	 * @throws LockUnavailableException if Redis cannot be reached
	 */
	LockKeyState keyState(String key);

	/**
	 * Releases the locks this client holds on a key, whichever threads hold them: deletes
	 * the key in Redis if it still holds their token, stops renewing them, and marks
	 * their leases lost, so that listeners are told and each holder gets a
	 * {@link LockLeaseLostException} when it releases. Keys held by other clients are
	 * never touched.
	 * @param key the Redis key, including the client's key prefix
	 * @return whether the client held the key
	 * @throws LockUnavailableException if Redis cannot be reached
	 */
	boolean forceRelease(String key);

	/**
	 * Checks that Redis serves lock commands: it answers through the client's connection
	 * and has the lock scripts, loading those it lost (after a restart or
	 * {@code SCRIPT FLUSH}) so that the next call does not have to.
	 * @return per script name ({@code acquire}, {@code release}, {@code renew},
	 * {@code inspect}), whether Redis already had it
	 * @throws DataAccessException if Redis cannot be reached or refuses to load a script
	 */
	Map<String, Boolean> checkScripts();

	/**
	 * Returns where the client sends its commands, as configured: {@code host:port} of a
	 * single server, the nodes of a cluster, or the master name and sentinels of
	 * Sentinel.
	 * @return the address
	 */
	String address();

	/**
	 * Returns whether Redis is a cluster. There {@link #checkScripts()} asks one node
	 * only, which need not serve any lock, while {@link #checkLocking()} runs the lock
	 * scripts on every master (loading them where they are missing).
	 * @return whether Redis is a cluster
	 */
	boolean isCluster();

	/**
	 * Checks that the client may lock: takes, queues for, hands over and releases a key
	 * of its own in distlock's namespace ({@code <prefix>distlock:health:*}), so that
	 * every command, key and channel permission a lock needs is exercised. Costs four
	 * round trips; on a cluster, four per master, so that the check fails while any slot
	 * has no reachable master.
	 * @throws DataAccessException if Redis cannot be reached or refuses a command (a
	 * missing permission is also reported by {@link #misconfiguration()})
	 * @throws IllegalStateException if Redis answers a step other than a lock needs
	 */
	void checkLocking();

	/**
	 * Reads, with {@code INFO memory}, whether Redis may evict lock keys: its
	 * {@code maxmemory} and {@code maxmemory-policy}; on a cluster, of every master that
	 * serves slots. Every lock key has a TTL, so any policy but {@code noeviction} may
	 * evict it while it is held ({@link EvictionPolicy#mayEvictLockKeys()}).
	 * @return the policy of each server
	 * @throws DataAccessException if Redis cannot be reached or refuses {@code INFO}
	 */
	List<EvictionPolicy> evictionPolicies();

	/**
	 * Returns the client's subscription to its one release channel, if its waiters are
	 * handed locks over by message on it.
	 * @return the subscription, or empty if waiters only retry or, on a cluster, are told
	 * on sharded channels (see {@link #shardedReleaseSubscription()})
	 */
	Optional<ReleaseSubscriptionStatus> releaseSubscription();

	/**
	 * Returns the state of the client's subscriptions to its sharded release channels on
	 * a cluster, from memory: the slots subscribed now (only those its callers wait on)
	 * and whether the cluster pub/sub connection is open.
	 * @return the state, or empty unless hand-over messages are sharded
	 */
	Optional<ShardedSubscriptionState> shardedReleaseSubscription();

	/**
	 * Returns what to fix if Redis refused the last lock command for a reason that
	 * retrying does not cure (a missing permission, wrong credentials); cleared by the
	 * next success.
	 * @return the fix, or empty
	 */
	Optional<String> misconfiguration();

}
