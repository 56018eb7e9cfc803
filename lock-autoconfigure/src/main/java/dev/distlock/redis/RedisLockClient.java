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
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.messages.ReleaseMessageWaiter;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.wait.LockWaiter;

/**
 * {@link LockClient} on Redis. Acquire is one round trip: a plain {@code SET NX PX} of a
 * fresh 128-bit owner token where the lock's name was not last found taken (its fencing
 * token is issued when first asked for), else a script that sets the key and grants the
 * next fencing token, or queues the caller if it is going to wait. Release is one round
 * trip where nobody waits: a delete of the key only if it holds the owner token (the
 * server's native conditional delete, or {@code delete-if-equal.lua}). While anyone waits
 * the key carries the queued mark, and the release script hands the lock to the first
 * waiter in its queue: a second round trip, unless the lock's name was last found taken,
 * in which case the release runs that script at once. A waiter that is handed the lock
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

	/** The Lettuce class whose presence turns on watching Lettuce's connection events. */
	static final String LETTUCE_EVENT_BUS = "io.lettuce.core.event.EventBus";

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(LETTUCE_EVENT_BUS,
			RedisLockClient.class.getClassLoader());

	private final LockKeyspace keyspace;

	private final LockOptions defaultOptions;

	private final Map<String, LockOptions> namedOptions;

	private final RedisLockCommands commands;

	private final PendingReleases pending;

	private final OwnerTokens tokens;

	private final LockEvents events;

	private final HeldLocks held;

	private final LocalCohort cohort;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final LockReleaser releaser;

	private final WaitingAcquirers waiting;

	private final LeaseExtension extension;

	private final LockAcquirer acquirer;

	private final MultiKeyAcquirer multiKeys;

	private final RedisLockMonitor monitor;

	private final String releaseChannel;

	/** The waiter told of hand-overs by message, or null if waiters only back off. */
	private final @Nullable ReleaseMessageWaiter releaseWaiter;

	/** The subscription that runs while the client does, or null without one. */
	private final @Nullable Lifecycle subscription;

	private final AutoCloseable connectionEvents;

	private final EvictionPolicyWarning evictionWarning;

	private volatile boolean running;

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

	/**
	 * Wires the client from its builder, lowest layer first: the protocol (keyspace,
	 * commands, background releases), the events and registry of holds, the cohort of the
	 * client's threads, the lease renewer, the releaser, how waiters are told of
	 * hand-overs, the acquirers, the monitor, and the watch on Lettuce's connection
	 * events.
	 */
	RedisLockClient(RedisLockClientBuilder builder) {
		RedisConnectionFactory connectionFactory = Objects.requireNonNull(builder.redis.getConnectionFactory(),
				"The StringRedisTemplate of a RedisLockClient needs a connection factory");
		this.defaultOptions = builder.defaultOptions;
		this.namedOptions = namedOptions(builder);
		this.tokens = new OwnerTokens();
		this.keyspace = new LockKeyspace(builder.keyPrefix, builder.clusterSlots, builder.maxKeyLength);
		// On a cluster, a lock command that Redis did not answer has Lettuce read the
		// topology again: its own triggers miss a master it never connected to.
		RedisReachability reachability = (LETTUCE_PRESENT && this.keyspace.isCluster())
				? new RedisReachability(true, LettuceTopologyRefresh.of(connectionFactory))
				: new RedisReachability(this.keyspace.isCluster());
		this.commands = new RedisLockCommands(builder.redis, this.keyspace, reachability,
				builder.claimWindow.toMillis(), builder.acknowledgement, builder.restartQuarantine);
		this.pending = new PendingReleases(this.commands);
		this.events = new LockEvents(builder.listeners);
		this.held = new HeldLocks();
		LocalCohort cohort = new LocalCohort(builder.maxLocalPasses, this.commands.reachability(),
				this.pending::release);
		this.cohort = cohort;
		RenewalReports reports = new RenewalReports(this.events, this.held, cohort);
		this.renewer = new LeaseRenewer<>(this.commands, reports, builder.renewalLease, builder.clusterSlots);
		this.releaser = new LockReleaser(this.commands, this.events, this.held, this.renewer, cohort, this.pending);
		this.waiting = new WaitingAcquirers(this.events);
		String clientId = this.tokens.clientId();
		this.releaseChannel = this.keyspace.releaseChannel(clientId);
		ReleaseMessaging messaging = ReleaseMessaging.of(builder, connectionFactory, this.keyspace, clientId,
				LETTUCE_PRESENT);
		this.releaseWaiter = messaging.waiter();
		this.subscription = messaging.subscription();
		this.extension = new LeaseExtension(this.commands, this.renewer, reports);
		this.acquirer = new LockAcquirer(this.commands, this.pending, this.tokens, this.held, cohort, this.waiting,
				(this.releaseWaiter != null) ? this.releaseWaiter : builder.waiter, this.renewer, this.releaser,
				this.extension::extend, new LazyFencingTokens(this.commands, reports), this.events,
				builder.renewalLease, builder.observationRegistry);
		this.multiKeys = new MultiKeyAcquirer(this.keyspace, this.commands, this.pending, this.tokens, this.held,
				this.acquirer, this.events, builder.observationRegistry);
		this.monitor = new ClientMonitor(this.held, this.releaser, this.waiting,
				new KeyStateReader(this.commands, this.held),
				new ClientHealthChecks(this.commands,
						new LockingProbe(this.commands, this.tokens, messaging.channelOf()), messaging.classic(),
						messaging.sharded()));
		this.connectionEvents = LETTUCE_PRESENT ? LettuceConnectionEvents.watch(connectionFactory,
				this.commands.reachability(), this.renewer::renewSoon) : () -> {
				};
		this.evictionWarning = new EvictionPolicyWarning(this.commands.monitoring()::evictionPolicies);
	}

	private static Map<String, LockOptions> namedOptions(RedisLockClientBuilder builder) {
		Map<String, LockOptions> options = new HashMap<>();
		builder.namedOptions
			.forEach((name, derive) -> options.put(name, derive.apply(builder.defaultOptions).withName(name)));
		return Map.copyOf(options);
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
		String redisKey = this.keyspace.lockKey(key);
		return Optional.ofNullable(this.acquirer.acquire(redisKey, options, System.nanoTime()));
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		return this.acquirer.lock(this.keyspace.lockKey(key), options);
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
		return this.multiKeys.tryLock(keys, options);
	}

	/**
	 * Acquires several keys together, all or nothing, as
	 * {@link #tryLock(Collection, LockOptions)} does, or throws.
	 * @param keys the lock keys, at least one
	 * @param options how long to wait for all the keys, and how long each lease lasts
	 * @return the held locks
	 * @throws dev.distlock.LockNotAcquiredException naming a key not acquired within the
	 * wait time, and saying so if Redis granted it too late to trust (its reply came
	 * after its lease, counted from the request, may have run out)
	 * @throws IllegalArgumentException if there is no key, a key is null, or the options
	 * are {@linkplain LockOptions#isShared() shared}
	 */
	@Override
	public LockHandle lock(Collection<String> keys, LockOptions options) {
		return this.multiKeys.lock(keys, options);
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
		return this.releaseChannel;
	}

	/**
	 * Returns the monitor of this client: the locks it holds, the callers waiting for
	 * one, the state of a key in Redis, checks of the scripts and permissions, and its
	 * subscription.
	 * @return the monitor
	 */
	public RedisLockMonitor monitor() {
		return this.monitor;
	}

	/**
	 * Subscribes to the release channel, if waiters are handed locks by message; until
	 * the subscription is established (retried every half second), they wait with the
	 * builder's waiter. With sharded channels on a cluster, it starts the subscriber,
	 * which subscribes a slot's channel when a caller first waits on that slot. The first
	 * start also checks in the background whether Redis may evict lock keys
	 * ({@link EvictionPolicyWarning}), and which native conditional delete it has, for
	 * releases ({@link RedisLockCommands#probeServer()}).
	 */
	@Override
	public void start() {
		if (this.subscription != null) {
			this.subscription.start();
		}
		this.evictionWarning.start();
		this.commands.probeServer();
		this.running = true;
	}

	/** Unsubscribes from the release channel, if there is a subscription. */
	@Override
	public void stop() {
		this.running = false;
		if (this.subscription != null) {
			this.subscription.stop();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Stops the subscription, renewal and background releases, and the watch on
	 * connection events; held locks expire with their leases.
	 */
	@Override
	public void close() {
		stop();
		// Connection events first: a reconnect told on Lettuce's event thread asks the
		// renewer for a round, which must not meet an executor being shut down there.
		closeQuietly(this.connectionEvents);
		this.renewer.close();
		this.pending.close();
		if (this.subscription instanceof DisposableBean disposable) {
			closeQuietly(disposable::destroy);
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Nothing left to watch.
		}
	}

	/**
	 * Builds the acquirer of a {@link ReactiveRedisLockClient} on this client: the same
	 * commands, owner tokens, holds, renewer, waiting callers and hand-over messages.
	 */
	ReactiveAcquirer reactiveAcquirer(ReactiveStringRedisTemplate redis) {
		ReactiveLockCommands reactive = new ReactiveLockCommands(redis, this.commands);
		return new ReactiveAcquirer(reactive, this.acquirer, this.pending, this.tokens, this.waiting,
				this.releaseWaiter, this.extension, this.events, this.releaser);
	}

	/** Returns the names of the client's keys and channels. */
	LockKeyspace keyspace() {
		return this.keyspace;
	}

	/** Returns the client's lock commands, for this package and its tests. */
	RedisLockCommands commands() {
		return this.commands;
	}

	/** Returns the holds of the client, for the tests of this package. */
	HeldLocks held() {
		return this.held;
	}

	/**
	 * Returns the threads of the client waiting to be passed locks, for the tests of this
	 * package.
	 */
	LocalCohort cohort() {
		return this.cohort;
	}

	/** Returns the renewer of the client's leases, for the tests of this package. */
	LeaseRenewer<RedisLockHandle> renewer() {
		return this.renewer;
	}

	/** Returns the waiter told of hand-overs by message, or null without one. */
	@Nullable ReleaseMessageWaiter releaseWaiter() {
		return this.releaseWaiter;
	}

	/**
	 * Lets a native image find Lettuce's event bus by name, as the check for Lettuce
	 * does; otherwise Lettuce would look absent there. Registered in
	 * {@code META-INF/spring/aot.factories}.
	 */
	static final class LettuceEventBusHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerTypeIfPresent(classLoader, LETTUCE_EVENT_BUS);
		}

	}

}
