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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import dev.distlock.LockRelease;
import dev.distlock.aop.DistributedLockAdvisor;

/**
 * Configuration properties of distlock. They validate themselves as Spring Boot binds
 * them (no Bean Validation provider needed), so that a value out of range fails startup
 * with a message naming the property and its valid range.
 */
@ConfigurationProperties("distlock")
public class DistributedLockProperties implements Validator {

	private static final Validator VALIDATOR = new DistributedLockPropertiesValidator();

	/**
	 * Whether @DistributedLock methods are locked. When disabled they run without any
	 * lock.
	 */
	private boolean enabled = true;

	/**
	 * Where locks are kept: in Redis, shared by every instance of the application; on a
	 * majority of several independent Redis masters (redlock, see distlock.redlock.*); or
	 * in memory, for tests and single-instance development, where locks exclude only the
	 * threads of this JVM.
	 */
	private Store store = Store.REDIS;

	/**
	 * How long a caller waits for a lock that someone else holds, where the annotation or
	 * call gives no wait time. Zero means a single attempt.
	 */
	private Duration waitTime = Duration.ofSeconds(5);

	/**
	 * How long Redis keeps a lock that was not released, where the annotation or call
	 * gives no lease time. When not set, leases are renewed automatically while the lock
	 * is held.
	 */
	private @Nullable Duration leaseTime;

	/**
	 * Prefix of every key and channel distlock uses: lock keys, and distlock's own keys
	 * and channels under "<prefix>distlock:", for example to keep several applications
	 * apart on one Redis, or to fit a Redis ACL user limited to the prefix.
	 */
	private String keyPrefix = "";

	/**
	 * Longest lock key accepted, in characters, without the prefix. A longer key fails
	 * the call before anything is sent to Redis.
	 */
	private int maxKeyLength = 1024;

	/**
	 * Order of the lock advisor among other advisors of the same method. Keep it lower
	 * than the transaction advisor's so that locks are released after the transaction
	 * commits.
	 */
	private int order = DistributedLockAdvisor.DEFAULT_ORDER;

	/**
	 * When the lock of a blocking @DistributedLock method that joins a transaction its
	 * caller began is released, where the annotation leaves release at DEFAULT: on-return
	 * when the method returns, or after-transaction once that transaction has committed
	 * or rolled back, so that the next holder reads what the method wrote.
	 */
	private LockRelease release = LockRelease.ON_RETURN;

	/**
	 * Whether the thread running a blocking @DistributedLock method is interrupted when
	 * the lease of its lock is found lost, so that the method stops at its next blocking
	 * call; the caller then gets a LockLeaseLostException. Reactive and coroutine methods
	 * are cancelled when their lease is lost either way.
	 */
	private boolean interruptOnLeaseLost;

	/**
	 * Longest pause between attempts to reconnect to Redis after a connection was lost,
	 * set on the application's Lettuce client resources so that locks work again soon
	 * after Redis is back. Zero keeps Lettuce's own backoff, which grows to 30 seconds.
	 */
	private Duration maxReconnectDelay = Duration.ofSeconds(1);

	/**
	 * Settings of single locks (wait-time, lease-time, min-hold-time, programmatic), by
	 * lock name: the name of a @DistributedLock, or the name a programmatic call passes
	 * to LockClient.defaultOptions(name). Each applies where the annotation gives no
	 * value, in place of the distlock.* default. A name with dots goes in brackets, as in
	 * distlock.locks[StockService.decrement].
	 */
	private final Map<String, NamedLockProperties> locks = new LinkedHashMap<>();

	private final Renewal renewal = new Renewal();

	private final Waiting waiting = new Waiting();

	private final Replication replication = new Replication();

	private final RestartQuarantine restartQuarantine = new RestartQuarantine();

	private final RedLock redlock = new RedLock();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	public @Nullable Duration getLeaseTime() {
		return this.leaseTime;
	}

	public void setLeaseTime(@Nullable Duration leaseTime) {
		this.leaseTime = leaseTime;
	}

	public int getMaxKeyLength() {
		return this.maxKeyLength;
	}

	public void setMaxKeyLength(int maxKeyLength) {
		this.maxKeyLength = maxKeyLength;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public LockRelease getRelease() {
		return this.release;
	}

	public void setRelease(LockRelease release) {
		this.release = release;
	}

	public boolean isInterruptOnLeaseLost() {
		return this.interruptOnLeaseLost;
	}

	public void setInterruptOnLeaseLost(boolean interruptOnLeaseLost) {
		this.interruptOnLeaseLost = interruptOnLeaseLost;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public Duration getMaxReconnectDelay() {
		return this.maxReconnectDelay;
	}

	public void setMaxReconnectDelay(Duration maxReconnectDelay) {
		this.maxReconnectDelay = maxReconnectDelay;
	}

	public Map<String, NamedLockProperties> getLocks() {
		return this.locks;
	}

	public Renewal getRenewal() {
		return this.renewal;
	}

	public Waiting getWaiting() {
		return this.waiting;
	}

	public Replication getReplication() {
		return this.replication;
	}

	public RestartQuarantine getRestartQuarantine() {
		return this.restartQuarantine;
	}

	public RedLock getRedlock() {
		return this.redlock;
	}

	/**
	 * Returns the longest lease the properties give a lock, and the property that gives
	 * it: the renewal lease, the default lease time, or a named lock's lease time.
	 * @return the property name and the lease
	 */
	Map.Entry<String, Duration> longestConfiguredLease() {
		Map.Entry<String, Duration> longest = Map.entry("distlock.renewal.lease", this.renewal.getLease());
		if (this.leaseTime != null && this.leaseTime.compareTo(longest.getValue()) > 0) {
			longest = Map.entry("distlock.lease-time", this.leaseTime);
		}
		for (Map.Entry<String, NamedLockProperties> lock : this.locks.entrySet()) {
			Duration lease = lock.getValue().getLeaseTime();
			if (lease != null && !NamedLockProperties.AUTO_RENEW.equals(lease)
					&& lease.compareTo(longest.getValue()) > 0) {
				longest = Map.entry("distlock.locks[" + lock.getKey() + "].lease-time", lease);
			}
		}
		return longest;
	}

	/**
	 * Returns whether {@link #validate} checks objects of the given type: these
	 * properties and their nested groups.
	 * @param type the type of the object to check
	 * @return whether it is checked
	 */
	@Override
	public boolean supports(Class<?> type) {
		return VALIDATOR.supports(type);
	}

	/**
	 * Rejects values out of range, such as a negative wait time or a renewal lease under
	 * 3ms.
	 * @param target these properties, or one of their nested groups
	 * @param errors where each value out of range is rejected, with a message naming the
	 * property, the value and the valid range
	 */
	@Override
	public void validate(Object target, Errors errors) {
		VALIDATOR.validate(target, errors);
	}

	/**
	 * Where locks are kept.
	 */
	public enum Store {

		/**
		 * In Redis, through the application's Redis connection: locks exclude every
		 * instance of the application that shares the Redis server.
		 */
		REDIS,

		/**
		 * In this JVM's memory, for tests and single-instance development: locks exclude
		 * only the threads of this JVM, never other instances.
		 */
		IN_MEMORY,

		/**
		 * On a majority of several independent Redis masters (RedLock), listed in
		 * {@code distlock.redlock.nodes}: locks exclude every instance of the application
		 * while a majority of the nodes answers, with fencing tokens that never go
		 * backwards.
		 */
		REDLOCK

	}

	/**
	 * RedLock: locks held on a majority of several independent Redis masters, used with
	 * {@code distlock.store=redlock}.
	 */
	public static class RedLock {

		/**
		 * Redis URLs of the independent masters, at least 3, each a different server that
		 * is neither a replica nor a cluster node, as in redis://host:6379 or
		 * rediss://user:password@host:6380. An odd number is recommended: an even number
		 * tolerates no more failed nodes than one node fewer.
		 */
		private List<String> nodes = new ArrayList<>();

		/**
		 * How long each command to one node may take before that node counts as not
		 * answering. Must be at most a tenth of the shortest lease, since a grant is
		 * valid only for the lease minus the time its two round trips took.
		 */
		private Duration nodeTimeout = Duration.ofMillis(50);

		/**
		 * Fixed part of the margin subtracted from every hold's validity for the drift
		 * between this process's clock and the nodes' clocks; 1% of the lease is added to
		 * it.
		 */
		private Duration driftMargin = Duration.ofMillis(2);

		/**
		 * Whether every node runs with appendfsync always, so that a node that restarts
		 * keeps every lock it granted. When false, the client enforces RedLock's
		 * delayed-restart rule: a node that restarted (a new run_id, or up for less than
		 * the longest lease) counts towards no majority until it has been up for the
		 * longest lease the client gives plus the drift margin, and locks it would be
		 * needed for are refused meanwhile. Set it only if every node persists every
		 * write before answering.
		 */
		private boolean appendfsyncAlways;

		public List<String> getNodes() {
			return this.nodes;
		}

		public void setNodes(List<String> nodes) {
			this.nodes = nodes;
		}

		public Duration getNodeTimeout() {
			return this.nodeTimeout;
		}

		public void setNodeTimeout(Duration nodeTimeout) {
			this.nodeTimeout = nodeTimeout;
		}

		public Duration getDriftMargin() {
			return this.driftMargin;
		}

		public void setDriftMargin(Duration driftMargin) {
			this.driftMargin = driftMargin;
		}

		public boolean isAppendfsyncAlways() {
			return this.appendfsyncAlways;
		}

		public void setAppendfsyncAlways(boolean appendfsyncAlways) {
			this.appendfsyncAlways = appendfsyncAlways;
		}

	}

	/**
	 * Automatic lease renewal.
	 */
	public static class Renewal {

		/**
		 * Lease given to auto-renewing locks; one thread per client renews all of them
		 * every third of it. A holder that stops (crash, lost connection) keeps others
		 * out for at most this long. At least 3ms.
		 */
		private Duration lease = Duration.ofSeconds(30);

		public Duration getLease() {
			return this.lease;
		}

		public void setLease(Duration lease) {
			this.lease = lease;
		}

	}

	/**
	 * Delayed restarts, done by the lock: a Redis server found to have lost distlock's
	 * state grants no lock until one longest lease has passed.
	 */
	public static class RestartQuarantine {

		/**
		 * Whether a Redis server found to have lost distlock's state (its fencing
		 * counter, which never expires, is gone: a restart without persistence, a flush)
		 * grants no lock for the quarantine, counted from the first lock script that
		 * finds the loss, so that every hold granted before it has run out, by its
		 * holder's own count, before the key is granted again: what the Redis
		 * documentation asks of operators as "delayed restarts". Callers are told the
		 * lock is held for the rest of the quarantine, and wait for it. Costs no grant
		 * for the quarantine after such a loss, and on the first use of a fresh server.
		 * Does not detect a restart from an older snapshot or append-only file that kept
		 * the counter, nor a failover to a replica that has it.
		 */
		private boolean enabled;

		/**
		 * How long a server that lost distlock's state grants no lock. At least the
		 * longest lease a lock is granted with; when not set, the longest lease the
		 * properties give (distlock.renewal.lease, distlock.lease-time,
		 * distlock.locks.*.lease-time). An acquisition with a longer lease (a fixed
		 * leaseTime of an annotation or call) fails.
		 */
		private @Nullable Duration duration;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getDuration() {
			return this.duration;
		}

		public void setDuration(@Nullable Duration duration) {
			this.duration = duration;
		}

	}

	/**
	 * Acknowledgement of grants by the master's replicas.
	 */
	public static class Replication {

		/**
		 * How many replicas must acknowledge the write of every grant in Redis, with
		 * WAIT, before the locked method runs; a grant that fewer acknowledge within the
		 * timeout is released and the call fails. Renewals are acknowledged too (one WAIT
		 * per batch), and a hold's deadline moves only with a renewal they acknowledged,
		 * so that after a failover to an acknowledging replica the old holder knows its
		 * lease is lost before the key can be granted again there. A failover then no
		 * longer loses a grant, unless every acknowledging replica fails too. Costs one
		 * more round trip per grant and per renewal batch. Zero to trust the master
		 * alone. On a Redis Cluster only with Lettuce.
		 */
		private int minReplicasAcked;

		/**
		 * How long a grant or a renewal waits for its replicas' acknowledgements. WAIT
		 * blocks the connection it is sent on, so commands of other threads on a shared
		 * connection (renewals among them) queue behind it: it should stay well under a
		 * third of the shortest lease, yet above the replicas' usual lag, which on a
		 * healthy network is about a millisecond. At least 1ms.
		 */
		private Duration ackTimeout = Duration.ofMillis(100);

		public int getMinReplicasAcked() {
			return this.minReplicasAcked;
		}

		public void setMinReplicasAcked(int minReplicasAcked) {
			this.minReplicasAcked = minReplicasAcked;
		}

		public Duration getAckTimeout() {
			return this.ackTimeout;
		}

		public void setAckTimeout(Duration ackTimeout) {
			this.ackTimeout = ackTimeout;
		}

	}

	/**
	 * Waiting for a lock that someone else holds.
	 */
	public static class Waiting {

		/**
		 * Whether waiters queue for a lock in Redis and are handed it by the release,
		 * which tells them on a Redis channel, instead of only retrying with backoff.
		 */
		private boolean pubSub = true;

		/**
		 * How many times in a row a lock may pass from one thread of this instance to
		 * another that waits for it without going through Redis, before it goes back
		 * through Redis, where waiters of other instances come first. Passing within the
		 * instance costs no round trip; waiters of other instances wait at most this many
		 * holds longer. Only auto-renewed leases without a minimum hold are passed. Zero
		 * to always go through Redis; at most 999.
		 */
		private int maxLocalPasses = 31;

		/**
		 * First pause between attempts when waiting with backoff.
		 */
		private Duration initialBackoff = Duration.ofMillis(1);

		/**
		 * Longest pause between attempts when waiting with backoff. Not shorter than the
		 * first pause.
		 */
		private Duration maxBackoff = Duration.ofMillis(50);

		public boolean isPubSub() {
			return this.pubSub;
		}

		public void setPubSub(boolean pubSub) {
			this.pubSub = pubSub;
		}

		public int getMaxLocalPasses() {
			return this.maxLocalPasses;
		}

		public void setMaxLocalPasses(int maxLocalPasses) {
			this.maxLocalPasses = maxLocalPasses;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

	}

}
