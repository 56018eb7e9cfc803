package dev.distlock.redis;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * {@link LockClient} on Redis. Acquire is one round trip (a script that sets the key with a
 * fresh 128-bit owner token and grants the next fencing token) and release is one round trip
 * (a compare-and-delete that announces the release to waiters). A thread that already holds a
 * key acquires it again without any round trip. Auto-renewing leases are kept alive by one
 * {@link LeaseRenewer} per client. Create it with {@link #builder(StringRedisTemplate)}.
 */
public class RedisLockClient implements LockClient, AutoCloseable {

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private final RedisLockCommands commands;

	private final LockWaiter waiter;

	private final String keyPrefix;

	private final LockOptions defaultOptions;

	private final LeaseRenewer renewer;

	private final LockListeners listeners;

	private final LockTokens tokens = new LockTokens();

	private final ThreadLocal<Map<String, RedisLockHandle>> held = ThreadLocal.withInitial(HashMap::new);

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
		this.commands = new RedisLockCommands(builder.redis, builder.releaseChannel());
		this.waiter = builder.waiter;
		this.keyPrefix = builder.keyPrefix;
		this.defaultOptions = builder.defaultOptions;
		this.listeners = new LockListeners(builder.listeners);
		this.renewer = new LeaseRenewer(this.commands, this, builder.renewalLease, builder.clusterSlots);
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
	 * Returns the channel on which releases are announced, to subscribe waiters to it.
	 * @return the channel name
	 */
	public String releaseChannel() {
		return this.commands.releaseChannel();
	}

	private @Nullable LockHandle acquire(String redisKey, LockOptions options, long start) {
		LockHandle reentered = reenter(redisKey);
		if (reentered != null) {
			return reentered;
		}
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.renewer.lease();
		LockAttempts attempts = new LockAttempts(this.commands, redisKey, this.tokens.next(), lease.toMillis());
		long fence = attempts.acquire(this.waiter, start, options.waitTime());
		if (fence <= 0) {
			this.listeners.notAcquired(redisKey, Duration.ofNanos(System.nanoTime() - start));
			return null;
		}
		RedisLockHandle handle = new RedisLockHandle(this, redisKey, attempts.token(), fence, lease, options,
				attempts.lastAttemptNanos());
		this.held.get().put(redisKey, handle);
		if (options.isAutoRenewing()) {
			this.renewer.register(handle);
		}
		logger.debug("Acquired lock '" + redisKey + "' with fencing token " + fence);
		this.listeners.acquired(handle, Duration.ofNanos(System.nanoTime() - start));
		return handle;
	}

	private @Nullable LockHandle reenter(String redisKey) {
		RedisLockHandle outer = this.held.get().get(redisKey);
		if (outer == null) {
			return null;
		}
		if (outer.isLeaseLost() || outer.leaseExpiredLocally()) {
			leaseLost(outer, "its lease had run out before a re-entrant acquisition");
			throw new LockLeaseLostException(redisKey, outer.leaseTime(), outer.heldFor());
		}
		LockHandle nested = outer.enter();
		if (nested == null) {
			this.held.get().remove(redisKey);
		}
		return nested;
	}

	void release(RedisLockHandle handle) {
		this.renewer.unregister(handle);
		if (Thread.currentThread() == handle.owner()) {
			this.held.get().remove(handle.key(), handle);
		}
		Duration held = handle.heldFor();
		long keep = Math.max(0, handle.minHoldTime().minus(held).toMillis());
		long outcome;
		try {
			outcome = this.commands.release(handle.key(), handle.token(), keep);
		}
		catch (DataAccessException ex) {
			this.listeners.released(handle, held);
			throw new LockUnavailableException(handle.key(), "release", ex);
		}
		handle.markReleasedInRedis(System.nanoTime());
		this.listeners.released(handle, held);
		if (outcome == 0) {
			leaseLost(handle, "its key was gone or held by another owner on release");
		}
		if (handle.isLeaseLost()) {
			throw new LockLeaseLostException(handle.key(), handle.leaseTime(), handle.heldFor());
		}
		logger.debug("Released lock '" + handle.key() + "'" + ((outcome == 2) ? ", kept for " + keep + "ms" : ""));
	}

	void leaseLost(RedisLockHandle handle, String reason) {
		if (handle.markLeaseLost()) {
			logger.warn("Lost the lease of lock '" + handle.key() + "' after " + handle.heldFor().toMillis() + "ms: "
					+ reason + "; another holder may run at the same time");
			this.listeners.leaseLost(handle);
		}
	}

	void renewed(int renewed, int roundTrips) {
		this.listeners.renewed(renewed, roundTrips);
	}

	LeaseRenewer renewer() {
		return this.renewer;
	}

	private String redisKey(String key) {
		Assert.hasText(key, "Lock key must not be blank");
		return this.keyPrefix + key;
	}

	@Override
	public void close() {
		this.renewer.close();
	}

}
