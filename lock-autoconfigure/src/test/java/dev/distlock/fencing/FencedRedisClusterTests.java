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

package dev.distlock.fencing;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.test.redis.RedisClusterDeployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fenced writes to data on a Redis Cluster of three masters (the locks on another
 * server): each script touches the data key and its companion key, which must share a
 * slot, for keys with and without a hash tag.
 */
class FencedRedisClusterTests {

	private static RedisClusterDeployment cluster;

	private FencingLocks locks;

	private LettuceConnectionFactory dataConnections;

	private StringRedisTemplate data;

	private FencedRedis fencedRedis;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start(3, 0);
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@BeforeEach
	void start() {
		this.locks = new FencingLocks();
		this.dataConnections = new LettuceConnectionFactory(
				new RedisClusterConfiguration(Arrays.asList(cluster.clusterNodes().split(","))),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.dataConnections.afterPropertiesSet();
		this.dataConnections.start();
		this.data = new StringRedisTemplate(this.dataConnections);
		this.fencedRedis = new FencedRedis(this.data, FencedWriteListener.NONE);
	}

	@AfterEach
	void stop() {
		this.dataConnections.destroy();
		this.locks.close();
	}

	@Test
	void everyWriteWorksOnKeysWithAndWithoutAHashTag() {
		List<String> keys = List.of("fenced:stock:25", "fenced:stock:26", "fenced:stock:27", "{fenced:user:1}:cart");
		assertThat(keys.stream().map(cluster::masterOf).distinct()).as("masters of the keys").hasSizeGreaterThan(1);
		List<LockHandle> holds = this.locks.pausedHoldAndNext("stock");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		for (String key : keys) {
			this.data.delete(List.of(key, key + ":hash", key + ":count", FencedRedis.fenceKey(key),
					FencedRedis.fenceKey(key + ":hash"), FencedRedis.fenceKey(key + ":count")));
			this.fencedRedis.under(next).set(key, "next");
			this.fencedRedis.under(next).putHashField(key + ":hash", "field", "next");
			assertThat(this.fencedRedis.under(next).increment(key + ":count", 2)).isEqualTo(2);
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> this.fencedRedis.under(paused).set(key, "paused"));
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> this.fencedRedis.under(paused).putHashField(key + ":hash", "field", "paused"));
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> this.fencedRedis.under(paused).increment(key + ":count", 100));
			assertThat(this.data.opsForValue().get(key)).isEqualTo("next");
			assertThat(this.data.<String, String>opsForHash().get(key + ":hash", "field")).isEqualTo("next");
			assertThat(this.data.opsForValue().get(key + ":count")).isEqualTo("2");
		}
		next.release();
		paused.release();
	}

}
