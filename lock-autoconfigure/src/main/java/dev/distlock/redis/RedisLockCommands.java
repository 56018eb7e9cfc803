package dev.distlock.redis;

import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis commands of the lock, one round trip each: acquire, release and batch renewal.
 * Failures are thrown as Spring's {@code DataAccessException}s.
 */
final class RedisLockCommands {

	private final StringRedisTemplate redis;

	private final String releaseChannel;

	RedisLockCommands(StringRedisTemplate redis, String releaseChannel) {
		this.redis = redis;
		this.releaseChannel = releaseChannel;
	}

	String releaseChannel() {
		return this.releaseChannel;
	}

	/**
	 * Tries to acquire a lock.
	 * @return the fencing token if acquired, else {@code -1 - holder's remaining lease in ms}
	 */
	long acquire(String key, String token, long leaseMillis) {
		Long result = this.redis.execute(LockScripts.ACQUIRE, List.of(key, LockKeys.fenceKey(key)), token,
				Long.toString(leaseMillis));
		return (result != null) ? result : -1;
	}

	/**
	 * Releases a lock held with the token.
	 * @return 1 if deleted, 2 if kept for the minimum hold, 0 if it was no longer held
	 */
	long release(String key, String token, long keepMillis) {
		Long result = this.redis.execute(LockScripts.RELEASE, List.of(key), token, Long.toString(keepMillis),
				this.releaseChannel);
		return (result != null) ? result : 0;
	}

	/**
	 * Renews the leases of a batch of locks.
	 * @return per lock, whether its lease was renewed
	 */
	boolean[] renew(List<RedisLockHandle> batch, long leaseMillis) {
		List<String> keys = new ArrayList<>(batch.size());
		Object[] args = new Object[batch.size() + 1];
		args[0] = Long.toString(leaseMillis);
		for (int i = 0; i < batch.size(); i++) {
			keys.add(batch.get(i).key());
			args[i + 1] = batch.get(i).token();
		}
		List<Long> results = this.redis.execute(LockScripts.RENEW, keys, args);
		boolean[] renewed = new boolean[batch.size()];
		for (int i = 0; results != null && i < renewed.length && i < results.size(); i++) {
			renewed[i] = Long.valueOf(1).equals(results.get(i));
		}
		return renewed;
	}

}
