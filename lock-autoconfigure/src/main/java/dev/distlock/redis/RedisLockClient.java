package dev.distlock.redis;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;

/**
 * {@link LockClient} on Redis. Acquire is one round trip (a script that sets the key with a
 * fresh 128-bit owner token and grants the next fencing token) and release is one round trip
 * (a compare-and-delete that announces the release to waiters). A thread that already holds a
 * key acquires it again without any round trip. Auto-renewing leases are kept alive by one
 * {@link LeaseRenewer} per client. Create it with {@link #builder(StringRedisTemplate)}.
 */
public class RedisLockClient implements LockClient, AutoCloseable {

	private final RedisLockCommands commands;

	private final LockWaiter waiter;

	private final String keyPrefix;

	private final LockOptions defaultOptions;

	private final LockHolds holds;

	private final LockTokens tokens = new LockTokens();

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
		this.holds = new LockHolds(this.commands, new LockListeners(builder.listeners), builder.renewalLease,
				builder.clusterSlots);
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
		LockHandle reentered = this.holds.reenter(redisKey);
		if (reentered != null) {
			return reentered;
		}
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.holds.renewer().lease();
		LockAttempts attempts = new LockAttempts(this.commands, redisKey, this.tokens.next(), lease.toMillis());
		long fence = attempts.acquire(this.waiter, start, options.waitTime());
		if (fence <= 0) {
			this.holds.notAcquired(redisKey, start);
			return null;
		}
		return this.holds.grant(redisKey, attempts.token(), fence, lease, options, attempts.lastAttemptNanos(), start);
	}

	LeaseRenewer renewer() {
		return this.holds.renewer();
	}

	private String redisKey(String key) {
		Assert.hasText(key, "Lock key must not be blank");
		return this.keyPrefix + key;
	}

	@Override
	public void close() {
		this.holds.close();
	}

}
