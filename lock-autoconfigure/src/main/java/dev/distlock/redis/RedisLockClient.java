package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * {@link LockClient} on a single Redis server (or a primary with replicas).
 * <p>
 * Acquire is one round trip, {@code SET key token NX PX lease}, with a fresh random token per
 * acquisition. Release is one round trip, a Lua compare-and-delete that removes the key only if
 * it still holds that token. Between attempts on a held lock the {@link LockWaiter} decides how
 * long to pause, never past the caller's deadline.
 */
public class RedisLockClient implements LockClient {

	private static final Log logger = LogFactory.getLog(RedisLockClient.class);

	private final StringRedisTemplate redis;

	private final LockWaiter waiter;

	private final String keyPrefix;

	private final LockOptions defaultOptions;

	private final LockTokens tokens = new LockTokens();

	/**
	 * Creates a client.
	 * @param redis the template used for every command; its connection factory decides where
	 * the locks live
	 * @param waiter what to do between two attempts on a held lock
	 * @param keyPrefix prepended to every key, may be empty
	 * @param defaultOptions the options of calls that give none
	 */
	public RedisLockClient(StringRedisTemplate redis, LockWaiter waiter, String keyPrefix,
			LockOptions defaultOptions) {
		this.redis = redis;
		this.waiter = waiter;
		this.keyPrefix = keyPrefix;
		this.defaultOptions = defaultOptions;
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

	private @Nullable LockHandle acquire(String redisKey, LockOptions options, long start) {
		long deadline = start + saturatedNanos(options.waitTime());
		String token = this.tokens.next();
		for (int attempt = 1;; attempt++) {
			if (Thread.currentThread().isInterrupted()) {
				logger.debug("Gave up on lock '" + redisKey + "': the thread was interrupted");
				return null;
			}
			if (setIfAbsent(redisKey, token, options.leaseTime())) {
				logger.debug("Acquired lock '" + redisKey + "' after " + attempt + " attempt(s)");
				return new RedisLockHandle(this, redisKey, token, options.leaseTime(), System.nanoTime());
			}
			if (System.nanoTime() - deadline >= 0 || !this.waiter.await(redisKey, attempt, deadline)) {
				logger.debug("Did not acquire lock '" + redisKey + "' within " + options.waitTime());
				return null;
			}
		}
	}

	private boolean setIfAbsent(String redisKey, String token, Duration leaseTime) {
		try {
			return Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(redisKey, token, leaseTime));
		}
		catch (DataAccessException ex) {
			boolean interrupted = Thread.interrupted();
			if (interrupted || ex instanceof QueryTimeoutException) {
				// The SET may have been applied even though its reply was lost: undo it if it was.
				deleteIfOwnedQuietly(redisKey, token);
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
				return false;
			}
			throw new LockUnavailableException(redisKey, "acquire", ex);
		}
	}

	void release(RedisLockHandle handle) {
		long deleted;
		try {
			deleted = deleteIfOwned(handle.key(), handle.token());
		}
		catch (DataAccessException ex) {
			throw new LockUnavailableException(handle.key(), "release", ex);
		}
		if (deleted == 0) {
			Duration held = handle.heldFor();
			logger.warn("Lease of lock '" + handle.key() + "' (" + handle.leaseTime() + ") expired before release, after "
					+ held.toMillis() + "ms; another holder may have run at the same time");
			throw new LockLeaseLostException(handle.key(), handle.leaseTime(), held);
		}
		logger.debug("Released lock '" + handle.key() + "'");
	}

	private long deleteIfOwned(String redisKey, String token) {
		Long deleted = this.redis.execute(LockScripts.RELEASE, List.of(redisKey), token);
		return (deleted != null) ? deleted : 0;
	}

	private void deleteIfOwnedQuietly(String redisKey, String token) {
		try {
			deleteIfOwned(redisKey, token);
		}
		catch (DataAccessException ex) {
			logger.debug("Could not undo a possibly applied acquire of '" + redisKey + "'; it expires with its lease", ex);
		}
	}

	private String redisKey(String key) {
		Assert.hasText(key, "Lock key must not be blank");
		return this.keyPrefix + key;
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

}
