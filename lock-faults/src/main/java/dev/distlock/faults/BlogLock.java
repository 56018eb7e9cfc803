package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.LongConsumer;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The naive lock of the controls: {@code SET key token NX PX lease} retried every 5 ms, a
 * plain {@code INCR blog:fence} as its fencing token, release by a Lua
 * compare-and-delete, no renewal and no notion of a lost lease.
 */
public final class BlogLock {

	private static final RedisScript<Long> RELEASE = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
			Long.class);

	/** The counter the blog lock takes its fencing tokens from. */
	public static final String FENCE_KEY = "blog:fence";

	private final StringRedisTemplate redis;

	private final Duration lease;

	/**
	 * Creates the lock.
	 * @param redis the template to reach Redis with
	 * @param lease the fixed lease
	 */
	public BlogLock(StringRedisTemplate redis, Duration lease) {
		this.redis = redis;
		this.lease = lease;
	}

	/**
	 * Spins until the lock is acquired, runs the body with a token from {@code INCR},
	 * releases.
	 * @param key the lock key
	 * @param body what to run, given the token
	 */
	public void run(String key, LongConsumer body) {
		String owner = UUID.randomUUID().toString();
		while (!Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key, owner, this.lease))) {
			Pause.millis(5);
		}
		try {
			Long token = this.redis.opsForValue().increment(FENCE_KEY);
			body.accept((token != null) ? token : 0);
		}
		finally {
			this.redis.execute(RELEASE, List.of(key), owner);
		}
	}

}
