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

import java.util.Collection;
import java.util.Optional;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.wait.LockWaiter;

/**
 * {@link LockClient} on Redis. Acquire is one round trip (a script that sets the key with
 * a fresh 128-bit owner token and grants the next fencing token, or queues the caller if
 * it is going to wait) and release is one round trip (a compare-and-delete that hands the
 * lock over to the first waiter in its queue, if any). A waiter that is handed the lock
 * over holds it without a round trip of its own. A thread that already holds a key
 * acquires it again without any round trip. Auto-renewing leases are kept alive by one
 * {@link LeaseRenewer} per client.
 * <p>
 * Create it with {@link #builder(StringRedisTemplate)}. With
 * {@link RedisLockClientBuilder#releaseMessages(boolean) release messages} it owns its
 * subscription to its release channel (on a cluster through Lettuce, its sharded
 * channels, one per slot a caller waits on), which runs while the client does: a Spring
 * context starts and stops it as a {@link SmartLifecycle}; elsewhere call
 * {@link #start()}. Its {@link #monitor() monitor} lists the locks it holds and the
 * callers waiting for one.
 */
public class RedisLockClient implements LockClient, SmartLifecycle, AutoCloseable {

	private final ClientParts parts;

	/**
	 * Creates a client with an auto-renewal lease of 30 seconds and no listeners, whose
	 * waiters only retry.
	 * @param redis the template used for every command
	 * @param waiter what to do between two attempts on a held lock
	 * @param keyPrefix prepended to every key and channel, may be empty
	 * @param defaultOptions the options of calls that give none
	 */
	public RedisLockClient(StringRedisTemplate redis, LockWaiter waiter, String keyPrefix, LockOptions defaultOptions) {
		this(builder(redis).waiter(waiter).keyPrefix(keyPrefix).defaultOptions(defaultOptions));
	}

	RedisLockClient(RedisLockClientBuilder builder) {
		this.parts = ClientParts.of(builder);
	}

	/**
	 * Starts building a client on the given template.
	 * @param redis the template used for every command
	 * @return the builder
	 */
	public static RedisLockClientBuilder builder(StringRedisTemplate redis) {
		return new RedisLockClientBuilder(redis);
	}

	@Override
	public LockOptions defaultOptions() {
		return this.parts.defaultOptions();
	}

	/**
	 * Returns the options the builder was given for the name, else the default options.
	 * @param name the logical name of the lock
	 * @return the options of locks of that name
	 */
	@Override
	public LockOptions defaultOptions(String name) {
		return this.parts.optionsFor(name);
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		String redisKey = this.parts.keyspace().lockKey(key);
		return Optional.ofNullable(this.parts.acquirer().acquire(redisKey, options, System.nanoTime()));
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.parts.acquirer().lock(this.parts.keyspace().lockKey(key), options);
	}

	/**
	 * Tries to acquire several keys together, all or nothing. The keys are locked in one
	 * order, the same in every process: by Redis Cluster slot, then by key (with the
	 * prefix). When every key lies in one hash slot (always on a single server or
	 * Sentinel; on a cluster when a hash tag such as {@code {account}} puts them
	 * together), the first attempt takes them all at once, in one round trip, if all are
	 * free, each with its own fencing token; otherwise it takes none. If a key is held
	 * and wait time remains, or the keys span slots, they are acquired one by one in that
	 * order, each through the same queue and hand-over as a lock of one key, within what
	 * is left of the wait time; when one is not acquired, those taken are released, so
	 * the caller never holds some keys beyond the wait time. Keys the calling thread
	 * already holds are re-entered. Where replicas must acknowledge grants, keys are
	 * always taken one by one, each acknowledged. Keys taken all at once are never passed
	 * to another thread of the client without Redis.
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @return the held locks, or empty if not all were acquired within the wait time
	 * @throws IllegalArgumentException if there is no key, a key is null, or the options
	 * are {@linkplain LockOptions#isShared() shared}
	 */
	@Override
	public Optional<LockHandle> tryLock(Collection<String> keys, LockOptions options) {
		return this.parts.multiKeys().tryLock(keys, options);
	}

	/**
	 * Acquires several keys together, all or nothing, as
	 * {@link #tryLock(Collection, LockOptions)} does, or throws.
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @return the held locks
	 * @throws dev.distlock.LockNotAcquiredException naming a key not acquired within the
	 * wait time
	 * @throws IllegalArgumentException if there is no key, a key is null, or the options
	 * are {@linkplain LockOptions#isShared() shared}
	 */
	@Override
	public LockHandle lock(Collection<String> keys, LockOptions options) {
		return this.parts.multiKeys().lock(keys, options);
	}

	/**
	 * Returns this client's own channel, on which a release tells its waiters that it
	 * handed them a lock over. Each client has its own, so that a hand-over message
	 * reaches only the process that waits. On a cluster with sharded hand-over messages
	 * (Lettuce, Redis 7.0+), releases tell the client's waiters on its sharded channel of
	 * the lock's slot instead, {@code <prefix>distlock:{<tag>}:released:<clientId>}, one
	 * per slot and subscribed only while a caller waits on that slot; this channel then
	 * names the client (its last segment is the same client id) but carries no messages.
	 * @return the channel name
	 * @see RedisLockMonitor#shardedReleaseSubscription()
	 */
	public String releaseChannel() {
		return this.parts.releaseChannel();
	}

	/**
	 * Returns the monitor of this client: the locks it holds, the callers waiting for
	 * one, the state of a key in Redis, checks of the scripts and permissions, and its
	 * subscription.
	 * @return the monitor
	 */
	public RedisLockMonitor monitor() {
		return this.parts.monitor();
	}

	/** The parts the client was built from, for the tests of this package. */
	ClientParts parts() {
		return this.parts;
	}

	/**
	 * Subscribes to the release channel, if waiters are handed locks by message; until
	 * the subscription is established (retried every half second), they wait with the
	 * builder's waiter. With sharded channels on a cluster, it starts the subscriber,
	 * which subscribes a slot's channel when a caller first waits on that slot.
	 */
	@Override
	public void start() {
		this.parts.lifecycle().start();
	}

	@Override
	public void stop() {
		this.parts.lifecycle().stop();
	}

	@Override
	public boolean isRunning() {
		return this.parts.lifecycle().isRunning();
	}

	/**
	 * Stops the subscription, renewal and background releases; held locks expire with
	 * their leases.
	 */
	@Override
	public void close() {
		stop();
		this.parts.lifecycle().close();
	}

}
