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

package dev.distlock.redlock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.distlock.Deadlines;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.support.HoldCount;
import dev.distlock.support.LeaseExtensionRules;
import dev.distlock.support.NestedLockHandle;

/**
 * {@link LockClient} that holds each lock on a majority of several independent Redis
 * masters (RedLock), with fencing tokens that never go backwards; selected in an
 * application with {@code distlock.store=redlock}. Exclusive locks only: read-write
 * locks, semaphores and minimum hold times are refused when asked for.
 * <p>
 * <b>Acquire.</b> One owner token per attempt is sent to every node at once, each on its
 * own connection and bounded by the node timeout. The attempt succeeds when a majority
 * granted; the hold is valid until its send time plus the lease minus the drift margin
 * ({@code distlock.redlock.drift-margin} plus 1% of the lease), so the time the replies
 * took counts against it. A failed attempt is released on every node, those that never
 * replied included, and tried again until the wait time ends: as soon as a release of the
 * lock on any node wakes the waiter ({@link RedLockWaiters}), else after a random pause
 * (see {@link Builder#retryPause(Duration)}). When too many nodes fail for a majority to
 * answer, the call fails with a {@link LockUnavailableException}.
 * <p>
 * <b>Fencing, in two phases.</b> Each node's grant returns
 * {@code max(its counter + 1, its clock in microseconds)} and stores it. The client takes
 * the greatest value {@code t} of the nodes that granted and writes it back, owner
 * checked, to every node; the hold is handed to the caller only once a majority stored
 * {@code t}, within its validity. Any later grant needs a majority too, which shares a
 * node with this one, and that node grants only after this hold ended there, so it
 * returns more than {@code t} (see {@code docs/redlock.md} for the assumptions).
 * <p>
 * <b>Renewal and release.</b> A hold without a lease time is renewed on every node every
 * third of the renewal lease; it stays valid only while a majority confirmed the last
 * renewal, counted from that renewal's send time, and once its validity ran out
 * {@link LockHandle#isLeaseLost()} stays true. Release is sent to every node; a node
 * whose reply is unknown is asked again in the background until its lease there must have
 * run out. A thread that holds a key re-enters it, with the same fencing token.
 */
public final class RedLockClient implements LockClient, AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedLockClient.class);

	/**
	 * Stands for a grant that does not count: see {@link RedLockNode#grantCounts(long)}.
	 */
	private static final List<Object> QUARANTINED = List.of(-1L, 0L);

	/** Longest pause between attempts to reconnect to a node that was lost. */
	private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(1);

	/** The tick of the timer that expires commands to the nodes. */
	private static final long TIMER_TICK_MILLIS = 10;

	private final HashedWheelTimer timer;

	private final ClientResources resources;

	private final RedisClient redis;

	private final List<RedLockNode> nodes;

	private final int majority;

	private final LockKeyspace keyspace;

	private final LockOptions defaultOptions;

	private final Map<String, LockOptions> namedOptions = new HashMap<>();

	private final Duration renewalLease;

	private final Duration nodeTimeout;

	private final Duration driftMargin;

	/**
	 * Longest pause between two attempts of one acquisition when no release wakes the
	 * waiter; each pause is random, from half of it to all of it.
	 */
	private final long retryPauseNanos;

	private final RedLockWaiters waiters;

	/**
	 * The longest lease this client gives or gave a lock, in nanoseconds: of its options,
	 * and of every acquisition and extension since it started.
	 */
	private final AtomicLong longestLeaseNanos = new AtomicLong();

	private final ScheduledExecutorService scheduler;

	/**
	 * Releases whose outcome on one node is unknown, asked again by the scheduler: added
	 * from the threads that complete replies (Netty event loops), which must not block,
	 * so a lock-free queue rather than a task scheduled from there.
	 */
	private final Queue<PendingRelease> pendingReleases = new ConcurrentLinkedQueue<>();

	private final RedLockEvents events;

	private final ObservationRegistry observationRegistry;

	private final ThreadLocal<Map<String, Hold>> heldByThread = ThreadLocal.withInitial(HashMap::new);

	/** Every hold of this client not yet released, of threads and of reactive work. */
	private final Set<Hold> live = ConcurrentHashMap.newKeySet();

	private RedLockClient(Builder builder) {
		this.nodeTimeout = builder.nodeTimeout;
		this.driftMargin = builder.driftMargin;
		// Expires commands within a few ms of the node timeout: Lettuce's default timer
		// ticks every 100 ms, so a call that waits for a node timeout took up to 100 ms
		// more.
		this.timer = new HashedWheelTimer((task) -> {
			Thread thread = new Thread(task, "distlock-redlock-timer");
			thread.setDaemon(true);
			return thread;
		}, TIMER_TICK_MILLIS, TimeUnit.MILLISECONDS);
		// Reconnects soon after a node is back: Lettuce's default backoff grows to 30s.
		this.resources = DefaultClientResources.builder()
			.reconnectDelay(Delay.exponential(Duration.ofMillis(1), MAX_RECONNECT_DELAY, 2, TimeUnit.MILLISECONDS))
			.timer(this.timer)
			.build();
		this.redis = RedisClient.create(this.resources);
		// Before any connection: a lost connection may be a restarted node.
		this.redis.addListener(new RedisConnectionStateListener() {

			@Override
			public void onRedisConnected(RedisChannelHandler<?, ?> connection, java.net.SocketAddress address) {
				forEachNode((node) -> node.connected(connection));
			}

			@Override
			public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
				forEachNode((node) -> node.disconnected(connection));
			}

		});
		this.redis.setOptions(ClientOptions.builder()
			.autoReconnect(true)
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.timeoutOptions(TimeoutOptions.enabled(builder.nodeTimeout))
			.socketOptions(SocketOptions.builder().connectTimeout(builder.connectTimeout).build())
			.build());
		List<RedLockNode> nodes = new ArrayList<>();
		for (int i = 0; i < builder.nodes.size(); i++) {
			nodes.add(new RedLockNode(this.redis, builder.nodes.get(i), i, builder.nodeTimeout));
		}
		this.nodes = List.copyOf(nodes);
		this.majority = nodes.size() / 2 + 1;
		this.retryPauseNanos = Math.max(2, builder.retryPause.toNanos());
		this.keyspace = new LockKeyspace(builder.keyPrefix, false, builder.maxKeyLength);
		this.defaultOptions = builder.defaultOptions;
		builder.namedOptions.forEach(
				(name, derive) -> this.namedOptions.put(name, derive.apply(builder.defaultOptions).withName(name)));
		this.renewalLease = builder.renewalLease;
		noteLease(this.renewalLease);
		noteLease(this.defaultOptions.leaseTime());
		this.namedOptions.values().forEach((named) -> noteLease(named.leaseTime()));
		if (!builder.appendfsyncAlways) {
			for (RedLockNode node : this.nodes) {
				node.countGrantsAfterRestart(() -> {
					long longest = this.longestLeaseNanos.get();
					return longest + Deadlines.nanos(this.driftMargin) + longest / 100;
				});
			}
		}
		this.events = new RedLockEvents(builder.listeners);
		this.observationRegistry = builder.observationRegistry;
		this.scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "distlock-redlock");
			thread.setDaemon(true);
			return thread;
		});
		this.waiters = new RedLockWaiters(this.nodes, this.scheduler);
		long retryPeriod = Math.max(this.nodeTimeout.toNanos(), TimeUnit.MILLISECONDS.toNanos(20));
		this.scheduler.scheduleWithFixedDelay(this::retryPendingReleases, retryPeriod, retryPeriod,
				TimeUnit.NANOSECONDS);
	}

	/**
	 * Starts building a client on the given nodes.
	 * @param nodes the Redis URLs of the independent masters, at least 3
	 * @return the builder
	 */
	public static Builder builder(List<String> nodes) {
		return new Builder(nodes);
	}

	@Override
	public LockOptions defaultOptions() {
		return this.defaultOptions;
	}

	/**
	 * Returns the options the builder was given for the name, else the default options.
	 * @param name the logical name of the lock
	 * @return the options of locks of that name
	 */
	@Override
	public LockOptions defaultOptions(String name) {
		LockOptions options = this.namedOptions.get(name);
		return (options != null) ? options : this.defaultOptions.withName(name);
	}

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		String lockKey = this.keyspace.lockKey(key);
		return Optional.ofNullable(acquire(lockKey, options, System.nanoTime()));
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		String lockKey = this.keyspace.lockKey(key);
		long start = System.nanoTime();
		LockHandle handle = acquire(lockKey, options, start);
		if (handle == null) {
			throw new LockNotAcquiredException(lockKey, options.name(), options.waitTime(),
					Duration.ofNanos(System.nanoTime() - start));
		}
		return handle;
	}

	/**
	 * Checks every node once, at startup: a node that is a replica or a cluster node, or
	 * the same server as another node, fails; a node that does not answer is logged, and
	 * fails only when fewer than a majority answer.
	 * @param timeout how long to wait for each node
	 * @throws DistributedLockConfigurationException naming the node's property and what
	 * to do
	 */
	public void checkNodes(Duration timeout) {
		Map<String, String> runIds = new HashMap<>();
		List<String> down = new ArrayList<>();
		for (RedLockNode node : this.nodes) {
			String role;
			String server;
			String cluster;
			try {
				role = String
					.valueOf(node.<List<Object>>command((c) -> c.role().toCompletableFuture(), timeout).join().get(0));
				server = node.<String>command((c) -> c.info("server").toCompletableFuture(), timeout).join();
				cluster = node.<String>command((c) -> c.info("cluster").toCompletableFuture(), timeout).join();
			}
			catch (RuntimeException ex) {
				logger.warn(node.name() + " does not answer at startup (" + rootMessage(ex)
						+ "); RedLock works while a majority of the nodes answers");
				down.add(node.name());
				continue;
			}
			if (!"master".equals(role)) {
				throw new DistributedLockConfigurationException(node.name() + " is a " + role
						+ ", not a master: a replica's copy of a lock can be lost in a failover, so it cannot count "
						+ "towards a RedLock majority",
						"List only independent Redis masters in distlock.redlock.nodes");
			}
			if (cluster.contains("cluster_enabled:1")) {
				throw new DistributedLockConfigurationException(
						node.name() + " is a Redis Cluster node: RedLock needs independent masters, "
								+ "and a cluster's nodes are not independent",
						"List standalone Redis masters in distlock.redlock.nodes, or use distlock.store=redis "
								+ "with the cluster");
			}
			String runId = infoField(server, "run_id");
			String earlier = (runId != null) ? runIds.putIfAbsent(runId, node.name()) : null;
			if (earlier != null) {
				throw new DistributedLockConfigurationException(
						node.name() + " and " + earlier + " are the same Redis server (run_id " + runId
								+ "), which would count twice towards the majority",
						"List each server once in distlock.redlock.nodes");
			}
		}
		if (this.nodes.size() - down.size() < this.majority) {
			throw new DistributedLockConfigurationException(
					"Only " + (this.nodes.size() - down.size()) + " of the " + this.nodes.size()
							+ " RedLock nodes answer at startup, fewer than the majority of " + this.majority
							+ " every lock needs; not answering: " + down,
					"Start the nodes, or correct distlock.redlock.nodes");
		}
	}

	/**
	 * Asks every node for a PING, at once, for health checks and tests.
	 * @param timeout how long to wait for each node
	 * @return each node's property and server, in the order of the nodes, and whether it
	 * answered
	 */
	public Map<String, Boolean> pingNodes(Duration timeout) {
		List<CompletableFuture<String>> pings = new ArrayList<>();
		for (RedLockNode node : this.nodes) {
			pings.add(node.command((commands) -> commands.ping().toCompletableFuture(), timeout));
		}
		Map<String, Boolean> answered = new java.util.LinkedHashMap<>();
		for (int i = 0; i < this.nodes.size(); i++) {
			answered.put(this.nodes.get(i).name(), pings.get(i).handle((pong, ex) -> "PONG".equals(pong)).join());
		}
		return answered;
	}

	/** Runs the action for each node, once the nodes exist. */
	private void forEachNode(java.util.function.Consumer<RedLockNode> action) {
		List<RedLockNode> nodes = this.nodes;
		if (nodes != null) {
			nodes.forEach(action);
		}
	}

	/** Notes a lease given to a lock, for the restart delay. */
	private void noteLease(@Nullable Duration lease) {
		if (lease != null) {
			this.longestLeaseNanos.accumulateAndGet(Deadlines.nanos(lease), Math::max);
		}
	}

	static @Nullable String infoField(String info, String field) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(field + ":")) {
				return line.substring(field.length() + 1).trim();
			}
		}
		return null;
	}

	private static String rootMessage(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return (cause instanceof java.util.concurrent.TimeoutException) ? "no reply in time" : cause.toString();
	}

	/**
	 * Acquires a key for the calling thread, re-entering it if the thread holds it.
	 * @return the hold, or null if not acquired within the wait time or interrupted
	 */
	private @Nullable LockHandle acquire(String lockKey, LockOptions options, long start) {
		refuseWhatRedLockDoesNotDo(lockKey, options);
		LockHandle reentered = reenter(lockKey);
		if (reentered != null) {
			return reentered;
		}
		Hold hold = acquireHold(lockKey, options, start);
		if (hold != null) {
			this.heldByThread.get().put(lockKey, hold);
		}
		return hold;
	}

	/**
	 * Acquires a key for work that no thread owns ({@link ReactiveRedLockClient}): the
	 * calling thread neither re-enters a hold of its own nor becomes the hold's, and any
	 * thread may release it. Blocks while it waits, as {@link #tryLock}.
	 * @param lockKey the key, with the prefix ({@link #lockKey(String)})
	 * @param options the options of the acquisition
	 * @param start when the acquisition began, by {@link System#nanoTime()}: the wait
	 * time counts from then
	 * @return the hold, or null if not acquired within the wait time or interrupted
	 * @throws LockUnavailableException if no majority of the nodes answered
	 */
	@Nullable Hold acquireForWork(String lockKey, LockOptions options, long start) {
		refuseWhatRedLockDoesNotDo(lockKey, options);
		return acquireHold(lockKey, options, start);
	}

	/**
	 * Returns the key of a lock as the nodes store it, with the prefix.
	 * @throws dev.distlock.InvalidLockKeyException if the key is refused
	 */
	String lockKey(String key) {
		return this.keyspace.lockKey(key);
	}

	/**
	 * Acquires a key anew (no re-entry), observed, and lists the hold among the live
	 * ones.
	 */
	private @Nullable Hold acquireHold(String lockKey, LockOptions options, long start) {
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.renewalLease;
		noteLease(lease);
		long leaseNanos = Deadlines.nanos(lease);
		long driftNanos = drift(lease);
		if (leaseNanos - driftNanos <= 2 * this.nodeTimeout.toNanos()) {
			throw new IllegalArgumentException("The lease of " + lease + " for " + lockKey + " leaves no validity on "
					+ "RedLock: it must exceed twice distlock.redlock.node-timeout (" + this.nodeTimeout
					+ ") plus the drift margin (" + Duration.ofNanos(driftNanos) + "). Use a longer lease.");
		}
		Hold hold = LockObservationDocumentation.observeAcquisition(this.observationRegistry, lockKey, options,
				() -> acquireNew(lockKey, options, start, lease, leaseNanos, driftNanos));
		if (hold != null) {
			hold.observation = LockObservationDocumentation.HOLD.start(this.observationRegistry, lockKey, options);
			this.live.add(hold);
		}
		return hold;
	}

	/**
	 * Attempts until a majority granted or the wait time ended, reporting the outcome to
	 * the listeners as the Redis client does: acquired, not acquired, or unavailable,
	 * with started and stopped waiting around the attempts after the first.
	 */
	private @Nullable Hold acquireNew(String lockKey, LockOptions options, long start, Duration lease, long leaseNanos,
			long driftNanos) {
		long deadline = Deadlines.after(start, options.waitTime());
		boolean waiting = false;
		RedLockWaiters.Waiter waiter = null;
		try {
			while (true) {
				String owner = UUID.randomUUID().toString();
				if (waiter != null) {
					waiter.attempting(owner);
				}
				Hold hold = attempt(lockKey, owner, options, lease, leaseNanos, driftNanos);
				if (hold != null) {
					if (waiter != null) {
						waiter.acquired();
					}
					if (options.isAutoRenewing()) {
						long period = Math.max(1, leaseNanos / 3);
						hold.renewal = this.scheduler.scheduleWithFixedDelay(() -> renew(hold), period, period,
								TimeUnit.NANOSECONDS);
					}
					waiting = stopWaiting(waiting, lockKey, options);
					this.events.acquired(hold, start);
					return hold;
				}
				long left = deadline - System.nanoTime();
				if (left <= 0 || Thread.currentThread().isInterrupted()) {
					waiting = stopWaiting(waiting, lockKey, options);
					this.events.notAcquired(lockKey, options, start);
					return null;
				}
				if (waiter == null) {
					waiter = this.waiters.join(this.keyspace.unlockedChannel(lockKey));
				}
				if (!waiting) {
					waiting = true;
					this.events.startedWaiting(lockKey, options);
				}
				long pause = ThreadLocalRandom.current().nextLong(this.retryPauseNanos / 2, this.retryPauseNanos);
				waiter.await(Math.min(left, pause));
				if (Thread.currentThread().isInterrupted()) {
					waiting = stopWaiting(waiting, lockKey, options);
					this.events.notAcquired(lockKey, options, start);
					return null;
				}
			}
		}
		catch (LockUnavailableException ex) {
			stopWaiting(waiting, lockKey, options);
			this.events.unavailable(lockKey, options, start, ex);
			throw ex;
		}
		finally {
			if (waiter != null) {
				waiter.close();
			}
		}
	}

	private boolean stopWaiting(boolean waiting, String lockKey, LockOptions options) {
		if (waiting) {
			this.events.stoppedWaiting(lockKey, options);
		}
		return false;
	}

	private void refuseWhatRedLockDoesNotDo(String lockKey, LockOptions options) {
		if (options.isShared()) {
			String kind = (options.permits() > 1) ? "a semaphore of " + options.permits() + " permits"
					: "the " + options.mode() + " side of a read-write lock";
			throw new LockMisconfigurationException(lockKey,
					"Lock " + lockKey + " (" + options.name() + ") asks for " + kind
							+ ", but distlock.store=redlock locks exclusively only: its majority protocol "
							+ "is not built for shared holds. Use an exclusive lock, or distlock.store=redis.");
		}
		if (!options.minHoldTime().isZero()) {
			throw new LockMisconfigurationException(lockKey,
					"Lock " + lockKey + " (" + options.name() + ") asks for a minimum hold time of "
							+ options.minHoldTime() + ", which distlock.store=redlock does not support. "
							+ "Remove min-hold-time, or use distlock.store=redis.");
		}
	}

	private @Nullable LockHandle reenter(String lockKey) {
		Map<String, Hold> held = this.heldByThread.get();
		Hold outer = held.get(lockKey);
		if (outer == null) {
			return null;
		}
		if (outer.holds.hasEnded()) {
			held.remove(lockKey);
			return null;
		}
		if (outer.isLeaseLost()) {
			throw new LockLeaseLostException(lockKey, outer.name(), outer.leaseTime(), outer.heldFor());
		}
		if (!outer.holds.enter()) {
			held.remove(lockKey);
			return null;
		}
		return new NestedLockHandle(outer, outer::exit);
	}

	/**
	 * One attempt on every node: phase 1 (grant and candidate token), then phase 2 (store
	 * the greatest candidate on a majority).
	 * @return the hold, or null if no majority granted and stored the token in time, or
	 * the thread was interrupted (its flag is then set)
	 * @throws LockUnavailableException if so many nodes failed that no majority answered
	 */
	private @Nullable Hold attempt(String lockKey, String owner, LockOptions options, Duration lease, long leaseNanos,
			long driftNanos) {
		String[] keys = { lockKey, this.keyspace.fenceKey(lockKey) };
		long sent = System.nanoTime();
		long validUntil = sent + leaseNanos - driftNanos;
		List<CompletableFuture<List<Object>>> grants = new ArrayList<>();
		for (RedLockNode node : this.nodes) {
			CompletableFuture<List<Object>> reply = node.eval(RedLockScript.ACQUIRE, ScriptOutputType.MULTI, keys,
					owner, Long.toString(lease.toMillis()));
			reply.whenComplete((answer, failure) -> {
				if (failure != null) {
					node.countAttempt(false, failure);
				}
			});
			grants.add(reply.thenApply((answer) -> counted(node, answer, sent)));
		}
		MajorityReplies<List<Object>> phase1 = MajorityReplies.of(grants, RedLockClient::isGranted);
		try {
			phase1.await();
			if (!phase1.succeeded()) {
				releaseEverywhere(keys[0], owner, leaseNanos);
				if (phase1.majorityUnreachable()) {
					throw unavailable(lockKey, options, "acquire", phase1);
				}
				return null;
			}
			long token = 0;
			List<String> grantedBy = new ArrayList<>();
			for (int i = 0; i < this.nodes.size(); i++) {
				List<Object> reply = phase1.reply(i);
				if (reply != null && isGranted(reply)) {
					token = Math.max(token, (Long) reply.get(1));
					grantedBy.add(this.nodes.get(i).name());
				}
			}
			List<CompletableFuture<Long>> stores = new ArrayList<>();
			for (int i = 0; i < this.nodes.size(); i++) {
				// Only a node whose grant counted counts here too. Its grant's reply came
				// before this one, on the same connection, even if after phase 1 was
				// decided.
				int node = i;
				stores.add(this.nodes.get(i)
					.<Long>eval(RedLockScript.FENCE, ScriptOutputType.INTEGER, keys, owner, Long.toString(token))
					.thenApply((stored) -> {
						List<Object> granted = phase1.reply(node);
						return (granted != null && isGranted(granted)) ? stored : 0L;
					}));
			}
			MajorityReplies<Long> phase2 = MajorityReplies.<Long>of(stores, (stored) -> stored == 1L).await();
			if (!phase2.succeeded() || System.nanoTime() - validUntil >= 0) {
				releaseEverywhere(keys[0], owner, leaseNanos);
				if (phase2.majorityUnreachable()) {
					throw unavailable(lockKey, options, "store the fencing token of", phase2);
				}
				return null;
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Acquired " + lockKey + " on a majority of the RedLock nodes, fencing token " + token);
			}
			return new Hold(lockKey, owner, options, lease, leaseNanos, token, sent, validUntil, grantedBy);
		}
		catch (InterruptedException ex) {
			releaseEverywhere(keys[0], owner, leaseNanos);
			Thread.currentThread().interrupt();
			return null;
		}
	}

	private static boolean isGranted(List<Object> reply) {
		return Long.valueOf(1L).equals(reply.get(0));
	}

	/**
	 * Counts a node's answer to phase 1, and returns it, or {@link #QUARANTINED} (not a
	 * grant) for a grant of a node that restarted too recently.
	 */
	private static List<Object> counted(RedLockNode node, List<Object> answer, long sent) {
		boolean granted = isGranted(answer);
		if (granted && !node.grantCounts(sent)) {
			node.countQuarantined();
			return QUARANTINED;
		}
		node.countAttempt(granted, null);
		return answer;
	}

	private LockUnavailableException unavailable(String lockKey, LockOptions options, String operation,
			MajorityReplies<?> replies) {
		return new MajorityUnavailableException(lockKey, options.name(), operation,
				"Could not " + operation + " lock " + LockKeyQuoting.quote(lockKey) + ": fewer than a majority ("
						+ this.majority + " of " + this.nodes.size() + ") of distlock.redlock.nodes answered: "
						+ replies.describeFailures(this.nodes)
						+ ". Check distlock.redlock.nodes and that the servers are up.");
	}

	/**
	 * A {@link LockUnavailableException} whose message names the RedLock nodes rather
	 * than the application's Redis connection.
	 */
	private static final class MajorityUnavailableException extends LockUnavailableException {

		MajorityUnavailableException(String key, String name, String operation, String message) {
			super(key, name, operation, message, null);
		}

	}

	/** The margin for clock drift: the configured margin plus 1% of the lease. */
	private long drift(Duration lease) {
		return Deadlines.nanos(this.driftMargin) + Deadlines.nanos(lease) / 100;
	}

	/**
	 * Renews a hold on every node; its validity moves only when a majority confirmed,
	 * counted from this renewal's send time.
	 */
	private void renew(Hold hold) {
		if (hold.holds.hasEnded()) {
			hold.cancelRenewal();
			return;
		}
		if (hold.isLeaseLost()) {
			hold.cancelRenewal();
			reportLeaseLost(hold, "no majority of the RedLock nodes confirmed a renewal before its validity ran out");
			return;
		}
		String[] keys = { hold.key };
		long sent = System.nanoTime();
		List<CompletableFuture<Long>> renewals = new ArrayList<>();
		for (RedLockNode node : this.nodes) {
			renewals.add(node.eval(RedLockScript.RENEW, ScriptOutputType.INTEGER, keys, hold.owner,
					Long.toString(hold.lease.toMillis())));
		}
		MajorityReplies<Long> replies = MajorityReplies.of(renewals, (renewed) -> renewed == 1L);
		replies.whenDecided(() -> {
			if (replies.succeeded()) {
				hold.extend(sent + hold.leaseNanos - drift(hold.lease));
			}
			else if (!replies.majorityUnreachable()) {
				// A majority answered, and too many of them no longer hold the lock.
				// (Runs
				// on the thread that completed the last reply: the next renewal logs it.)
				hold.markLost();
			}
		});
	}

	/**
	 * Sends a release to every node without waiting; a node whose reply is unknown is
	 * asked again in the background.
	 */
	private void releaseEverywhere(String lockKey, String owner, long leaseNanos) {
		release(lockKey, owner, System.nanoTime() + leaseNanos + 2 * this.nodeTimeout.toNanos());
	}

	private MajorityReplies<Long> release(String lockKey, String owner, long keyExpiresBy) {
		List<CompletableFuture<Long>> releases = new ArrayList<>();
		for (RedLockNode node : this.nodes) {
			releases.add(releaseOn(new PendingRelease(node, lockKey, owner, keyExpiresBy)));
		}
		return MajorityReplies.of(releases, (released) -> released != null);
	}

	/**
	 * Sends one release; if its outcome is unknown, queues it to be asked again.
	 */
	private CompletableFuture<Long> releaseOn(PendingRelease release) {
		CompletableFuture<Long> reply = release.node()
			.eval(RedLockScript.RELEASE, ScriptOutputType.INTEGER, new String[] { release.lockKey() }, release.owner(),
					this.keyspace.unlockedChannel(release.lockKey()));
		reply.whenComplete((released, failure) -> {
			if (failure != null && System.nanoTime() - release.keyExpiresBy() < 0) {
				this.pendingReleases.add(release);
			}
		});
		return reply;
	}

	/**
	 * Asks the nodes again to release the locks whose release had no answer, until it is
	 * answered or the lock must have expired there anyway.
	 */
	private void retryPendingReleases() {
		for (int pending = this.pendingReleases.size(); pending > 0; pending--) {
			PendingRelease release = this.pendingReleases.poll();
			if (release == null) {
				return;
			}
			releaseOn(release);
		}
	}

	/**
	 * A release to send to one node again, until the lock's key expires there.
	 *
	 * @param node the node
	 * @param lockKey the lock key
	 * @param owner the owner token of the hold
	 * @param keyExpiresBy when the key has expired on the node at the latest, by
	 * {@link System#nanoTime()}
	 */
	private record PendingRelease(RedLockNode node, String lockKey, String owner, long keyExpiresBy) {

	}

	/**
	 * Ends a hold whose last (outer) hold was released: releases it on every node.
	 * @throws LockLeaseLostException if its validity had run out before
	 * @throws LockUnavailableException if no majority answered the release
	 */
	private void end(Hold hold) {
		hold.cancelRenewal();
		this.live.remove(hold);
		Map<String, Hold> held = this.heldByThread.get();
		held.remove(hold.key, hold);
		if (held.isEmpty()) {
			this.heldByThread.remove();
		}
		boolean lost = hold.isLeaseLost();
		Duration heldFor = hold.heldFor();
		MajorityReplies<Long> released;
		try {
			released = release(hold.key, hold.owner,
					Math.max(hold.validUntilNanos() + drift(hold.lease), System.nanoTime() + hold.keyLeaseNanos())
							+ 2 * this.nodeTimeout.toNanos())
				.awaitUninterruptibly();
		}
		finally {
			LockObservationDocumentation.stopHold(hold.observation, hold);
		}
		if (lost) {
			reportLeaseLost(hold, "its validity ran out before release");
		}
		this.events.released(hold, heldFor,
				lost ? "released on every node after its validity ran out" : "released on every node");
		if (lost) {
			throw new LockLeaseLostException(hold.key, hold.name(), hold.lease, hold.heldFor());
		}
		if (released.majorityUnreachable()) {
			throw unavailable(hold.key, hold.options, LockUnavailableException.RELEASE, released);
		}
	}

	/** Tells the listeners that a hold's lease was lost, once per hold. */
	private void reportLeaseLost(Hold hold, String reason) {
		if (hold.markLossReported()) {
			this.events.reportLeaseLost(hold, hold.heldFor(), reason);
		}
	}

	/**
	 * Returns how each node answered acquisition attempts since the client started, in
	 * the order of {@code distlock.redlock.nodes}.
	 * @return the outcomes of each node
	 */
	public List<RedLockNodeOutcomes> nodeOutcomes() {
		return this.nodes.stream().map(RedLockNode::outcomes).toList();
	}

	/**
	 * Returns the locks this client holds, for threads and for reactive work, not yet
	 * released, by name and key. Read from memory, no command to the nodes.
	 * @return the held locks
	 */
	public List<RedLockHoldInfo> heldLocks() {
		long now = System.nanoTime();
		return this.live.stream()
			.map((hold) -> hold.info(now))
			.sorted(Comparator.comparing(RedLockHoldInfo::name).thenComparing(RedLockHoldInfo::key))
			.toList();
	}

	/**
	 * Returns the nodes whose grants count towards no majority now: nodes that restarted
	 * (or started) less than the longest lease plus the drift margin ago, and nodes not
	 * read again since their connection was lost; always empty with
	 * {@link Builder#appendfsyncAlways(boolean) appendfsyncAlways}.
	 * @return each such node's property and server, in the order of the nodes
	 */
	public List<String> quarantinedNodes() {
		long now = System.nanoTime();
		return this.nodes.stream().filter((node) -> !node.grantCounts(now)).map(RedLockNode::name).toList();
	}

	/**
	 * Closes the connections to the nodes and stops renewing; holds still open run out
	 * with their leases.
	 */
	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.nodes.forEach(RedLockNode::close);
		this.redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		this.resources.shutdown(0, 2, TimeUnit.SECONDS);
		// Given to the resources, which leave it running.
		this.timer.stop();
	}

	/**
	 * A lock held on a majority of the nodes by this client.
	 */
	final class Hold implements LockHandle {

		private final String key;

		private final String owner;

		private final LockOptions options;

		private final Duration lease;

		private final long leaseNanos;

		private final long fencingToken;

		private final long grantedNanos;

		private final Instant grantedAt;

		private final List<String> grantedBy;

		/** Told once, when the hold is found lost. */
		private final List<Runnable> lossWatchers = new CopyOnWriteArrayList<>();

		private final HoldCount holds = new HoldCount();

		private long validUntil;

		private boolean lost;

		private boolean released;

		private boolean lossReported;

		private volatile Observation observation = Observation.NOOP;

		private volatile @Nullable ScheduledFuture<?> renewal;

		/** Applies extensions one at a time. */
		private final Object extending = new Object();

		/**
		 * The longest lease the key was given on the nodes (by the acquisition or an
		 * extension, answered or not), for how long a release is retried.
		 */
		private long keyLeaseNanos;

		Hold(String key, String owner, LockOptions options, Duration lease, long leaseNanos, long fencingToken,
				long grantedNanos, long validUntil, List<String> grantedBy) {
			this.grantedBy = List.copyOf(grantedBy);
			this.grantedAt = Instant.now().minusNanos(System.nanoTime() - grantedNanos);
			this.key = key;
			this.owner = owner;
			this.options = options;
			this.lease = lease;
			this.leaseNanos = leaseNanos;
			this.fencingToken = fencingToken;
			this.grantedNanos = grantedNanos;
			this.validUntil = validUntil;
			this.keyLeaseNanos = leaseNanos;
		}

		@Override
		public String key() {
			return this.key;
		}

		@Override
		public String name() {
			return this.options.name();
		}

		@Override
		public Duration leaseTime() {
			return this.lease;
		}

		@Override
		public boolean isAutoRenewing() {
			return this.options.isAutoRenewing();
		}

		@Override
		public long fencingToken() {
			return this.fencingToken;
		}

		/**
		 * Whether the hold's validity ran out: once true, true for good, whatever a late
		 * renewal says.
		 */
		@Override
		public synchronized boolean isLeaseLost() {
			if (!this.lost && System.nanoTime() - this.validUntil >= 0) {
				lose();
			}
			return this.lost;
		}

		/**
		 * Marks the hold lost and tells the watchers, once; under this hold's monitor.
		 */
		private void lose() {
			if (!this.lost) {
				this.lost = true;
				this.lossWatchers.forEach(Runnable::run);
			}
		}

		/**
		 * Runs the action once when the hold is found lost (its validity ran out, or a
		 * majority no longer holds it), at once if it already was; on the thread that
		 * finds it, under the hold's monitor: the action must be short and never block.
		 */
		synchronized void onLeaseLost(Runnable action) {
			if (this.lost) {
				action.run();
			}
			else {
				this.lossWatchers.add(action);
			}
		}

		/** What the actuator shows of the hold, as of the given time. */
		synchronized RedLockHoldInfo info(long now) {
			boolean lostNow = isLeaseLost();
			return new RedLockHoldInfo(name(), this.key, this.grantedAt, Duration.ofNanos(now - this.grantedNanos),
					lostNow ? Duration.ZERO : Duration.ofNanos(Math.max(0, this.validUntil - now)), isAutoRenewing(),
					this.fencingToken, this.grantedBy, lostNow);
		}

		@Override
		public synchronized boolean isReleased() {
			return this.released;
		}

		@Override
		public void release() {
			synchronized (this) {
				if (this.released) {
					return;
				}
				this.released = true;
			}
			exit();
		}

		/**
		 * Extends the lease on every node by the owner-checked renewal script, with the
		 * given lease. The validity moves earlier to {@code send time + lease - drift} at
		 * the send, whatever the answers, if that is earlier (a node whose answer is lost
		 * may have run a shorter extension); it moves there, later too, when a majority
		 * confirmed. Extensions of one hold are applied one at a time.
		 */
		@Override
		public void extend(Duration leaseTime) {
			synchronized (this.extending) {
				RuntimeException refusal = LeaseExtensionRules.refusal(this, leaseTime, isReleased(), heldFor());
				if (refusal != null) {
					throw refusal;
				}
				noteLease(leaseTime);
				long sent = System.nanoTime();
				long until = sent + Deadlines.nanos(leaseTime) - drift(leaseTime);
				synchronized (this) {
					if (until - this.validUntil < 0) {
						this.validUntil = until;
					}
					// Nodes may run it whatever the answers: a release is retried for as
					// long as it may keep the key there.
					this.keyLeaseNanos = Math.max(this.keyLeaseNanos, Deadlines.nanos(leaseTime));
				}
				List<CompletableFuture<Long>> extensions = new ArrayList<>();
				for (RedLockNode node : RedLockClient.this.nodes) {
					extensions.add(node.eval(RedLockScript.RENEW, ScriptOutputType.INTEGER, new String[] { this.key },
							this.owner, Long.toString(leaseTime.toMillis())));
				}
				MajorityReplies<Long> replies = MajorityReplies.of(extensions, (extended) -> extended == 1L)
					.awaitUninterruptibly();
				if (replies.succeeded()) {
					synchronized (this) {
						if (!isLeaseLost()) {
							this.validUntil = until;
							return;
						}
					}
				}
				else if (replies.majorityUnreachable()) {
					throw unavailable(this.key, this.options, LockUnavailableException.EXTEND, replies);
				}
				// A majority answered, and too many of them no longer hold the lock (or
				// the validity ran out while they answered).
				markLost();
				reportLeaseLost(this, "no majority of the RedLock nodes held it when asked to extend its lease");
				throw LeaseExtensionRules.lost(this, heldFor());
			}
		}

		/** Ends one hold; the last one releases the lock on every node. */
		void exit() {
			if (this.holds.exit()) {
				end(this);
			}
		}

		/** Moves the validity to a renewal's, unless it already ran out. */
		synchronized void extend(long renewedUntil) {
			if (!isLeaseLost() && renewedUntil - this.validUntil > 0) {
				this.validUntil = renewedUntil;
			}
		}

		synchronized void markLost() {
			lose();
		}

		synchronized long keyLeaseNanos() {
			return this.keyLeaseNanos;
		}

		/** Whether the loss is reported now for the first time. */
		synchronized boolean markLossReported() {
			boolean first = !this.lossReported;
			this.lossReported = true;
			return first;
		}

		@Override
		public Observation observation() {
			return this.observation;
		}

		synchronized long validUntilNanos() {
			return this.validUntil;
		}

		Duration heldFor() {
			return Duration.ofNanos(System.nanoTime() - this.grantedNanos);
		}

		void cancelRenewal() {
			ScheduledFuture<?> renewal = this.renewal;
			if (renewal != null) {
				renewal.cancel(false);
			}
		}

		@Override
		public String toString() {
			return "RedLock hold[name=" + name() + ", key=" + this.key + ", fencingToken=" + this.fencingToken
					+ ", leaseTime=" + this.lease + ", autoRenewing=" + isAutoRenewing() + "]";
		}

	}

	/**
	 * Builds a {@link RedLockClient}.
	 */
	public static final class Builder {

		private final List<String> nodes;

		private String keyPrefix = "";

		private int maxKeyLength = 1024;

		private LockOptions defaultOptions = LockOptions.renewing(Duration.ofSeconds(5));

		private final Map<String, UnaryOperator<LockOptions>> namedOptions = new HashMap<>();

		private Duration renewalLease = Duration.ofSeconds(30);

		private Duration nodeTimeout = Duration.ofMillis(50);

		private Duration connectTimeout = Duration.ofSeconds(1);

		private Duration driftMargin = Duration.ofMillis(2);

		private Duration retryPause = Duration.ofMillis(30);

		private boolean appendfsyncAlways;

		private final List<LockListener> listeners = new ArrayList<>();

		private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

		private Builder(List<String> nodes) {
			if (nodes.size() < 3) {
				throw new IllegalArgumentException(
						"RedLock needs at least 3 nodes (distlock.redlock.nodes), but was given " + nodes.size());
			}
			this.nodes = List.copyOf(nodes);
		}

		/**
		 * Sets the prefix of every key.
		 * @param keyPrefix the prefix, as {@code distlock.key-prefix}
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Sets the longest key accepted, without the prefix.
		 * @param maxKeyLength the length, as {@code distlock.max-key-length}
		 * @return this builder
		 */
		public Builder maxKeyLength(int maxKeyLength) {
			this.maxKeyLength = maxKeyLength;
			return this;
		}

		/**
		 * Sets the options of calls that give none.
		 * @param defaultOptions the options
		 * @return this builder
		 */
		public Builder defaultOptions(LockOptions defaultOptions) {
			this.defaultOptions = defaultOptions;
			return this;
		}

		/**
		 * Sets how the options of locks of one name derive from the default options.
		 * @param name the lock name
		 * @param derive the change from the default options
		 * @return this builder
		 */
		public Builder defaultOptions(String name, UnaryOperator<LockOptions> derive) {
			this.namedOptions.put(name, derive);
			return this;
		}

		/**
		 * Sets the lease of auto-renewing holds.
		 * @param renewalLease the lease, as {@code distlock.renewal.lease}
		 * @return this builder
		 */
		public Builder renewalLease(Duration renewalLease) {
			this.renewalLease = renewalLease;
			return this;
		}

		/**
		 * Sets how long each command to one node may take.
		 * @param nodeTimeout the timeout, as {@code distlock.redlock.node-timeout}
		 * @return this builder
		 */
		public Builder nodeTimeout(Duration nodeTimeout) {
			this.nodeTimeout = nodeTimeout;
			return this;
		}

		/**
		 * Sets how long connecting to a node may take.
		 * @param connectTimeout the timeout
		 * @return this builder
		 */
		public Builder connectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
			return this;
		}

		/**
		 * Sets the fixed part of the drift margin; 1% of the lease is added to it.
		 * @param driftMargin the margin, as {@code distlock.redlock.drift-margin}
		 * @return this builder
		 */
		public Builder driftMargin(Duration driftMargin) {
			this.driftMargin = driftMargin;
			return this;
		}

		/**
		 * Sets the longest pause between two attempts of an acquisition that waits, when
		 * no release wakes it first: a release on any node wakes a waiter at once, so the
		 * pause bounds only what a lost release message costs. Each pause is random, from
		 * half of it to all of it, and never outlasts the wait time.
		 * @param retryPause the pause, positive
		 * @return this builder
		 */
		public Builder retryPause(Duration retryPause) {
			if (retryPause.isNegative() || retryPause.isZero()) {
				throw new IllegalArgumentException("The RedLock retry pause must be positive, but was " + retryPause);
			}
			this.retryPause = retryPause;
			return this;
		}

		/**
		 * Sets whether every node persists each write before it answers
		 * ({@code appendfsync always}), so that a node that restarts keeps every lock it
		 * granted. When false (the default), a node that restarted (its {@code run_id}
		 * changed, or it has been up for less than the longest lease) counts towards no
		 * majority until it has been up for the longest lease this client gives, plus the
		 * drift margin: the delayed-restart rule of RedLock, enforced by the client. Set
		 * it only when every node runs with {@code appendfsync always}.
		 * @param appendfsyncAlways whether every node runs with
		 * {@code appendfsync always}
		 * @return this builder
		 */
		public Builder appendfsyncAlways(boolean appendfsyncAlways) {
			this.appendfsyncAlways = appendfsyncAlways;
			return this;
		}

		/**
		 * Adds a listener told of acquisitions, waits, releases and lost leases, as by
		 * the Redis client.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(LockListener listener) {
			this.listeners.add(listener);
			return this;
		}

		/**
		 * Sets where acquisitions and holds are observed
		 * ({@link LockObservationDocumentation#ACQUISITION},
		 * {@link LockObservationDocumentation#HOLD}).
		 * @param observationRegistry the registry, {@link ObservationRegistry#NOOP} for
		 * none
		 * @return this builder
		 */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			this.observationRegistry = observationRegistry;
			return this;
		}

		/**
		 * Builds the client, which connects to its nodes in the background.
		 * @return the client
		 */
		public RedLockClient build() {
			return new RedLockClient(this);
		}

	}

}
