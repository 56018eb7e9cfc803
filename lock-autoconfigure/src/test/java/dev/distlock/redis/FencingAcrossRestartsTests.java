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

package dev.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing tokens never go backwards when Redis loses its counter: a restart without
 * persistence, a counter restored from an older snapshot, a flushed counter key or script
 * cache. A plain {@code INCR} counter, the control, goes backwards in the same restart.
 */
class FencingAcrossRestartsTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private LockFixture fixture;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(REDIS.server(), Duration.ofSeconds(30));
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void tokensAfterARestartWithoutPersistenceExceedEveryEarlierToken() {
		String key = TestRedis.uniqueKey("restart");
		long before = highestOf(key, 200);
		this.fixture.redis.opsForValue().increment("control:counter", 200);
		REDIS.restartEmpty(this.fixture.redis);
		long controlAfter = this.fixture.redis.opsForValue().increment("control:counter");
		assertThat(controlAfter).as("control: a plain INCR counter starts again from 1").isEqualTo(1);
		assertThat(lowestOf(key, 50)).as("tokens after the restart").isGreaterThan(before);
	}

	@Test
	void tokensAfterTheCounterWentBackExceedEveryEarlierToken() {
		String key = TestRedis.uniqueKey("snapshot");
		highestOf(key, 5);
		String snapshot = this.fixture.redis.opsForValue().get(LockFixture.KEYSPACE.fenceKey(key));
		long before = highestOf(key, 20);
		// As a restore from an older RDB snapshot, or a failover to a replica that lags,
		// would.
		this.fixture.redis.opsForValue().set(LockFixture.KEYSPACE.fenceKey(key), snapshot);
		assertThat(lowestOf(key, 5)).isGreaterThan(before);
	}

	@Test
	void tokensAfterTheCounterOrTheScriptsAreFlushedExceedEveryEarlierToken() {
		String key = TestRedis.uniqueKey("flush");
		long before = highestOf(key, 20);
		this.fixture.redis.delete(LockFixture.KEYSPACE.fenceKey(key));
		this.fixture.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.scriptingCommands().scriptFlush();
			return null;
		});
		assertThat(lowestOf(key, 5)).isGreaterThan(before);
	}

	private long highestOf(String key, int holds) {
		List<Long> tokens = tokensOf(key, holds);
		assertThat(tokens).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
		return tokens.get(tokens.size() - 1);
	}

	private long lowestOf(String key, int holds) {
		return tokensOf(key, holds).get(0);
	}

	private List<Long> tokensOf(String key, int holds) {
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < holds; i++) {
			try (LockHandle handle = this.fixture.client.lock(key, FIXED)) {
				tokens.add(handle.fencingToken());
			}
		}
		return tokens;
	}

}
