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

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.ReplicaAcknowledgement;
import dev.distlock.redis.protocol.RestartQuarantine;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Builds a {@link RedisLockClient}. Every setting has a default: no key prefix, keys of
 * at most {@value #DEFAULT_MAX_KEY_LENGTH} characters, a wait of 5 seconds with
 * auto-renewing leases of 30 seconds, jittered backoff between attempts, up to
 * {@value #DEFAULT_MAX_LOCAL_PASSES} passes in a row between threads of the client
 * without Redis, no listeners, no observations, renewal batches that ignore Redis Cluster
 * slots, and no replica acknowledgement of grants.
 */
public final class RedisLockClientBuilder {

	/**
	 * How many times in a row a lock passes between threads of a client without Redis, by
	 * default.
	 */
	public static final int DEFAULT_MAX_LOCAL_PASSES = 31;

	/** The longest lock key accepted by default, in characters, without the prefix. */
	public static final int DEFAULT_MAX_KEY_LENGTH = 1024;

	final StringRedisTemplate redis;

	String keyPrefix = "";

	int maxKeyLength = DEFAULT_MAX_KEY_LENGTH;

	LockOptions defaultOptions = LockOptions.renewing(Duration.ofSeconds(5));

	final Map<String, UnaryOperator<LockOptions>> namedOptions = new LinkedHashMap<>();

	LockWaiter waiter = JitteredBackoffWaiter.standard();

	Duration renewalLease = Duration.ofSeconds(30);

	boolean clusterSlots;

	int maxLocalPasses = DEFAULT_MAX_LOCAL_PASSES;

	Duration claimWindow = WaitTimings.CLAIM_WINDOW;

	boolean releaseMessages;

	boolean shardedChannels = true;

	ReplicaAcknowledgement acknowledgement = ReplicaAcknowledgement.NONE;

	RestartQuarantine restartQuarantine = RestartQuarantine.OFF;

	final List<LockListener> listeners = new ArrayList<>();

	ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	RedisLockClientBuilder(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Sets the prefix prepended to every key and channel the client uses: lock keys, and
	 * distlock's own keys and channels under {@code <prefix>distlock:}.
	 * @param keyPrefix the prefix, may be empty
	 * @return this builder
	 */
	public RedisLockClientBuilder keyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
		return this;
	}

	/**
	 * Sets the longest lock key accepted, in characters, without the prefix; a longer key
	 * is refused with an {@link dev.distlock.InvalidLockKeyException} before anything is
	 * sent to Redis.
	 * @param maxKeyLength the limit, at least 1
	 * @return this builder
	 */
	public RedisLockClientBuilder maxKeyLength(int maxKeyLength) {
		Assert.isTrue(maxKeyLength >= 1, "maxKeyLength must be at least 1");
		this.maxKeyLength = maxKeyLength;
		return this;
	}

	/**
	 * Sets the options of calls that give none.
	 * @param defaultOptions the default options
	 * @return this builder
	 */
	public RedisLockClientBuilder defaultOptions(LockOptions defaultOptions) {
		this.defaultOptions = defaultOptions;
		return this;
	}

	/**
	 * Sets the options of the locks of one name, which
	 * {@link RedisLockClient#defaultOptions(String)} returns and
	 * {@link dev.distlock.DistributedLock @DistributedLock} methods of that name start
	 * from.
	 * @param name the logical name of the locks
	 * @param options makes the options of the name from the client's
	 * {@link #defaultOptions(LockOptions) default options}, as they are when the client
	 * is built; the result is given the name
	 * @return this builder
	 */
	public RedisLockClientBuilder defaultOptions(String name, UnaryOperator<LockOptions> options) {
		Assert.hasText(name, "name must not be blank");
		this.namedOptions.put(name, options);
		return this;
	}

	/**
	 * Sets how acquirers wait between attempts: alone, or, with
	 * {@link #releaseMessages(boolean) release messages}, while the client's subscription
	 * is not established.
	 * @param waiter the waiter
	 * @return this builder
	 */
	public RedisLockClientBuilder waiter(LockWaiter waiter) {
		this.waiter = waiter;
		return this;
	}

	/**
	 * Sets the lease of auto-renewing locks; it is renewed every third of it.
	 * @param renewalLease the lease
	 * @return this builder
	 */
	public RedisLockClientBuilder renewalLease(Duration renewalLease) {
		Assert.isTrue(renewalLease.toMillis() >= 3, "renewalLease must be at least 3ms");
		this.renewalLease = renewalLease;
		return this;
	}

	/**
	 * Sets whether Redis is a cluster, so that each renewal script only touches keys of
	 * one slot.
	 * @param clusterSlots whether to group renewals by cluster slot
	 * @return this builder
	 */
	public RedisLockClientBuilder clusterSlots(boolean clusterSlots) {
		this.clusterSlots = clusterSlots;
		return this;
	}

	/**
	 * Sets whether waiters take a place in the lock's queue in Redis and are handed the
	 * lock over by the release that ends the previous hold, told on a channel of this
	 * client ({@link RedisLockClient#releaseChannel()}), to which the client subscribes
	 * while it runs ({@link RedisLockClient#start()}). Until the subscription is
	 * established they wait with the {@link #waiter(LockWaiter) waiter}, which otherwise
	 * serves alone. On a {@link #clusterSlots(boolean) cluster} through Lettuce (Redis
	 * 7.0+), the client has a sharded channel per slot instead, subscribed only while one
	 * of its callers waits on a lock of that slot, so that a hand-over message stays on
	 * the lock's shard; with Jedis it keeps the one classic channel.
	 * @param releaseMessages whether waiters are handed locks over by message
	 * @return this builder
	 */
	public RedisLockClientBuilder releaseMessages(boolean releaseMessages) {
		this.releaseMessages = releaseMessages;
		return this;
	}

	/**
	 * Sets whether, on a cluster ({@link #clusterSlots(boolean)}) through Lettuce,
	 * release messages go on sharded channels in each lock's slot rather than on the
	 * client's one classic channel, which the cluster broadcasts to every node. On by
	 * default; off only to measure the difference.
	 * @param shardedChannels whether to use sharded channels where possible
	 * @return this builder
	 */
	RedisLockClientBuilder shardedChannels(boolean shardedChannels) {
		this.shardedChannels = shardedChannels;
		return this;
	}

	/**
	 * Sets how many times in a row a lock may pass from one thread of the client to
	 * another that waits for it, without Redis, before it goes back through Redis (where
	 * waiters of other processes come first). Passing locally costs no round trip; other
	 * processes wait at most this many holds longer. Only auto-renewed leases without a
	 * minimum hold pass locally.
	 * @param maxLocalPasses 0 to always go through Redis
	 * @return this builder
	 */
	public RedisLockClientBuilder maxLocalPasses(int maxLocalPasses) {
		Assert.isTrue(maxLocalPasses >= 0 && maxLocalPasses < 1000, "maxLocalPasses must be between 0 and 999");
		this.maxLocalPasses = maxLocalPasses;
		return this;
	}

	/**
	 * Sets how long a release keeps a lock it hands to a waiter until the waiter confirms
	 * it (the waiter's lease, if shorter): a waiter that died while queued keeps others
	 * out no longer than this. At most {@link WaitTimings#QUEUE_ENTRY_TTL}.
	 * @param claimWindow the claim window
	 * @return this builder
	 */
	RedisLockClientBuilder claimWindow(Duration claimWindow) {
		Assert.isTrue(claimWindow.toMillis() >= 10 && claimWindow.compareTo(WaitTimings.QUEUE_ENTRY_TTL) <= 0,
				"claimWindow must be between 10ms and the queue entry TTL");
		this.claimWindow = claimWindow;
		return this;
	}

	/**
	 * Sets how many replicas must acknowledge the write of every grant in Redis (an
	 * acquire, or a hand-over that the waiter confirms), with {@code WAIT} on the
	 * connection that wrote it: a failover right after the grant then no longer loses it,
	 * unless every acknowledging replica fails too. A grant that fewer acknowledge within
	 * the timeout is released again and the acquisition fails with a
	 * {@link dev.distlock.ReplicaAcknowledgementException}. Every renewal batch is
	 * followed by one {@code WAIT} too, and a hold's local deadline moves only with a
	 * renewal that enough replicas acknowledged: after a failover to such a replica,
	 * which keeps the lock until the lease of the last write it received runs out, the
	 * old holder's {@link dev.distlock.LockHandle#isLeaseLost()} is true before anyone
	 * can be granted the lock there. A lock kept for its minimum hold at release is
	 * acknowledged as well (a release that too few acknowledge throws the exception, the
	 * lock kept on the master); a plain release or a hand-over is not: the replica then
	 * keeps the lock longer, never shorter, and the waiter confirms a hand-over with an
	 * acknowledged attempt. Costs one more round trip per grant and per renewal batch;
	 * {@code WAIT} blocks the connection it is sent on, so other commands on a shared
	 * connection queue behind it for up to the timeout. Passing a lock between threads of
	 * the client without Redis writes nothing, and waits for nothing. On a Redis Cluster
	 * both go over Lettuce's write connection to the master of the lock's slot; with
	 * Jedis a cluster is refused when the client is built.
	 * @param replicas how many replicas must acknowledge, 0 (the default) for none
	 * @param timeout how long to wait for them, at least 1ms if any are required
	 * @return this builder
	 */
	public RedisLockClientBuilder replicaAcknowledgement(int replicas, Duration timeout) {
		this.acknowledgement = new ReplicaAcknowledgement(replicas, timeout);
		return this;
	}

	/**
	 * Sets the restart quarantine: how long a Redis server found to have lost distlock's
	 * state (its fencing counter, which never expires, is gone: a restart without
	 * persistence, a flush) grants no lock, counted by its clock from the first lock
	 * script that finds the loss. Every hold granted before the loss has then run out, by
	 * its holder's own count, before the key is granted again, even if the holder never
	 * reaches the restarted server: what the Redis documentation asks of operators as
	 * "delayed restarts". Meanwhile callers are told the lock is held for the rest of the
	 * quarantine, and wait for it as for a held lock. It costs no grant for this long
	 * after such a loss, and on the first use of a fresh server. It does not detect a
	 * restart from an older snapshot or an append-only file that kept the counter, nor a
	 * failover to a replica that has it. It must be at least the longest lease: the
	 * renewal lease and the default options' lease are checked when the client is built,
	 * and an acquisition with a longer lease is refused with a
	 * {@link dev.distlock.LockMisconfigurationException}.
	 * @param quarantine how long, {@link Duration#ZERO} (the default) for none
	 * @return this builder
	 */
	public RedisLockClientBuilder restartQuarantine(Duration quarantine) {
		this.restartQuarantine = new RestartQuarantine(quarantine);
		return this;
	}

	/**
	 * Adds a listener told about acquisitions, releases, renewals and lost leases.
	 * @param listener the listener
	 * @return this builder
	 */
	public RedisLockClientBuilder listener(LockListener listener) {
		this.listeners.add(listener);
		return this;
	}

	/**
	 * Sets where acquisitions and holds are observed
	 * ({@link dev.distlock.observation.LockObservationDocumentation#ACQUISITION},
	 * {@link dev.distlock.observation.LockObservationDocumentation#HOLD}).
	 * @param observationRegistry the registry, {@link ObservationRegistry#NOOP} for none
	 * @return this builder
	 */
	public RedisLockClientBuilder observationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = observationRegistry;
		return this;
	}

	/**
	 * Builds the client.
	 * @return the client; close it to stop its renewal thread
	 */
	public RedisLockClient build() {
		RedisConnectionFactory connectionFactory = this.redis.getConnectionFactory();
		Assert.state(
				!this.clusterSlots || !this.acknowledgement.isRequired()
						|| (connectionFactory != null && RedisLockCommands.acknowledgesOnCluster(connectionFactory)),
				"Replica acknowledgement (distlock.replication.min-replicas-acked) on a Redis Cluster needs Lettuce: "
						+ "Jedis routes each command on its own, so WAIT cannot be sent on the node connection that "
						+ "wrote the lock. Use Lettuce, or set distlock.replication.min-replicas-acked to 0.");
		checkQuarantine("the renewal lease", this.renewalLease);
		Duration defaultLease = this.defaultOptions.leaseTime();
		if (defaultLease != null) {
			checkQuarantine("the default options' lease", defaultLease);
		}
		this.namedOptions.forEach((name, options) -> {
			Duration lease = options.apply(this.defaultOptions).leaseTime();
			if (lease != null) {
				checkQuarantine("the lease of the locks named '" + name + "'", lease);
			}
		});
		return new RedisLockClient(this);
	}

	private void checkQuarantine(String what, Duration lease) {
		Assert.state(!this.restartQuarantine.isOn() || lease.compareTo(this.restartQuarantine.duration()) <= 0,
				() -> "The restart quarantine (" + RestartQuarantine.DURATION_PROPERTY + ", "
						+ this.restartQuarantine.duration().toMillis() + "ms) must be at least the longest lease, but "
						+ what + " is " + lease.toMillis() + "ms");
	}

}
