package dev.distlock.benchmarks;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The floor: two synchronous {@code PING}s on the same Lettuce connection the
 * Spring-based contenders use, the round-trip limit for an acquire plus a release. Not a
 * lock.
 */
final class PingFloor implements Contender {

	static final String NAME = "floor: 2×PING";

	private static final RedisCallback<String> PING = (connection) -> connection.ping();

	private final StringRedisTemplate redis;

	PingFloor(StringRedisTemplate redis) {
		this.redis = redis;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void runLocked(String key, Runnable section) {
		this.redis.execute(PING);
		section.run();
		this.redis.execute(PING);
	}

}
