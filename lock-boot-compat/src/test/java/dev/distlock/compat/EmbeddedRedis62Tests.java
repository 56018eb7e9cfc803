package dev.distlock.compat;

import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CompatApplication} on the {@code redis-server} 6.2 that the
 * {@code com.github.codemonstur:embedded-redis} artifact ships, which the sample starts
 * where no {@code redis-server} is on {@code PATH}: the oldest Redis distlock runs on.
 */
class EmbeddedRedis62Tests extends CompatApplicationChecks {

	private RedisServerProcess server;

	@Override
	Map<String, Object> startRedis() {
		this.server = RedisServerProcess.startEmbeddedOnFreePort();
		return Map.of("spring.data.redis.host", this.server.host(), "spring.data.redis.port", this.server.port(),
				"spring.data.redis.timeout", "2s");
	}

	@Override
	void stopRedis() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Override
	RedisTestServer serverOf(String key) {
		return this.server;
	}

	@Override
	boolean shardedReleaseChannels() {
		return false;
	}

	@Test
	@Order(10)
	void runsOnRedis62() {
		assertThat(redisVersion(this.server)).startsWith("6.2.");
	}

}
