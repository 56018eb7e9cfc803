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
