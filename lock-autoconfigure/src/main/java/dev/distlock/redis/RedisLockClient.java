package dev.distlock.redis;

import java.time.Duration;
import java.util.Optional;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.observation.LockObservationDocumentation;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.ReleaseMessageWaiter;

/**
 * {@link LockClient} on Redis. Acquire is one round trip (a script that sets the key with a
 * fresh 128-bit owner token and grants the next fencing token, or queues the caller if it is
 * going to wait) and release is one round trip (a compare-and-delete that hands the lock to the
 * first waiter in its queue, if any). A waiter that is handed the lock holds it without a round
 * trip of its own. A thread that already holds a key acquires it again without any round trip. Auto-renewing leases are kept alive by one
 * {@link LeaseRenewer} per client. Create it with {@link #builder(StringRedisTemplate)}; its
 * {@link #monitor() monitor} lists the locks it holds and the callers waiting for one.
 */
public class RedisLockClient implements LockClient, AutoCloseable {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.event.EventBus",
			RedisLockClient.class.getClassLoader());

	private final LockKeyspace keyspace;

	private final LockOptions defaultOptions;

	private final HeldLocks held;

	private final LockEvents events;

	private final LeaseRenewer<RedisLockHandle> renewer;

	private final String releaseChannel;

	private final LockAcquirer acquirer;

	private final ObservationRegistry observationRegistry;

	private final RedisLockMonitor monitor;

	private final PendingReleases pending;

	private final AutoCloseable connectionEvents;

	private final RedisReachability reachability;

	/**
	 * Creates a client with an auto-renewal lease of 30 seconds and no listeners.
	 * @param redis the template used for every command
	 * @param waiter what to do between two attempts on a held lock
	 * @param keyPrefix prepended to every key, may be empty
	 * @param defaultOptions the options of calls that give none
	 */
	public RedisLockClient(StringRedisTemplate redis, LockWaiter waiter, String keyPrefix, LockOptions defaultOptions) {
		this(builder(redis).waiter(waiter).keyPrefix(keyPrefix).defaultOptions(defaultOptions));
	}

	RedisLockClient(RedisLockClientBuilder builder) {
		OwnerTokens tokens = new OwnerTokens();
		RedisReachability reachability = new RedisReachability();
		this.reachability = reachability;
		this.keyspace = new LockKeyspace(builder.keyPrefix, builder.clusterSlots, builder.maxKeyLength);
		RedisLockCommands commands = new RedisLockCommands(builder.redis, this.keyspace, reachability,
				builder.claimWindow.toMillis());
		this.pending = new PendingReleases(commands);
		LocalCohort local = new LocalCohort(builder.maxLocalPasses, reachability, this.pending);
		this.releaseChannel = this.keyspace.releaseChannel(tokens.clientId());
		this.defaultOptions = builder.defaultOptions;
		this.events = new LockEvents(builder.listeners);
		this.held = new HeldLocks(this.events);
		this.renewer = new LeaseRenewer<>(commands, new RenewalReports(this.events, this.held),
				builder.renewalLease, builder.clusterSlots);
		LockReleaser releaser = new LockReleaser(commands, this.events, this.held, this.renewer, local, this.pending);
		LockGrants grants = new LockGrants(this.held, this.renewer, this.events, releaser);
		WaitingAcquirers waiting = new WaitingAcquirers(this.events);
		this.acquirer = new LockAcquirer(commands, builder.waiter, grants, this.events, builder.renewalLease, local,
				waiting, tokens, this.pending);
		this.observationRegistry = builder.observationRegistry;
		this.monitor = new RedisLockMonitor(commands, this.held, releaser, waiting,
				new LockingProbe(commands, tokens, this.releaseChannel));
		this.connectionEvents = LETTUCE_PRESENT ? LettuceConnectionEvents.watch(builder.redis.getConnectionFactory(),
				reachability, this.renewer::renewSoon) : () -> {
				};
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

	@Override
	public Optional<LockHandle> tryLock(String key, LockOptions options) {
		return Optional.ofNullable(acquire(redisKey(key), options, System.nanoTime()));
	}

	@Override
	public LockHandle lock(String key, LockOptions options) {
		String redisKey = redisKey(key);
		long start = System.nanoTime();
		LockHandle handle = acquire(redisKey, options, start);
		if (handle == null) {
			throw new LockNotAcquiredException(redisKey, options.waitTime(), Duration.ofNanos(System.nanoTime() - start));
		}
		return handle;
	}

	/**
	 * Returns this client's own channel, on which a release tells its waiters that it handed
	 * them the lock; subscribe a {@link ReleaseMessageWaiter} to it. Each client has its own, so
	 * that a hand-over message reaches only the process that waits.
	 * @return the channel name
	 */
	public String releaseChannel() {
		return this.releaseChannel;
	}

	/**
	 * Returns the monitor of this client: the locks it holds, the callers waiting for one, the
	 * state of a key in Redis, and a check that Redis has the lock scripts.
	 * @return the monitor
	 */
	public RedisLockMonitor monitor() {
		return this.monitor;
	}

	private @Nullable LockHandle acquire(String redisKey, LockOptions options, long start) {
		LockHandle reentered = this.held.reenter(redisKey);
		if (reentered != null) {
			return reentered;
		}
		Observation observation = LockObservationDocumentation.ACQUISITION.start(this.observationRegistry,
				options.name(), redisKey);
		LockHandle handle;
		try (Observation.Scope scope = observation.openScope()) {
			handle = this.acquirer.acquire(redisKey, options, start);
		}
		catch (RuntimeException ex) {
			if (ex instanceof LockUnavailableException unavailable) {
				this.events.unavailable(redisKey, options.name(), start, unavailable);
			}
			observation.error(ex);
			LockObservationDocumentation.stop(observation, LockObservationDocumentation.ERROR);
			throw ex;
		}
		LockObservationDocumentation.stop(observation, (handle != null) ? LockObservationDocumentation.ACQUIRED
				: LockObservationDocumentation.NOT_ACQUIRED);
		return handle;
	}

	RedisReachability reachability() {
		return this.reachability;
	}

	LeaseRenewer<RedisLockHandle> renewer() {
		return this.renewer;
	}

	private String redisKey(String key) {
		return this.keyspace.lockKey(key);
	}

	@Override
	public void close() {
		this.renewer.close();
		this.pending.close();
		try {
			this.connectionEvents.close();
		}
		catch (Exception ex) {
			// Nothing left to watch.
		}
	}

}
