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

package dev.distlock.aop;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.test.spring.WithRedisTestServer;
import dev.distlock.testing.SharedRedisConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application tested as a user tests it: {@code @SpringBootTest} with
 * {@link WithRedisTestServer} and no Redis property locks through
 * {@code @DistributedLock} on the shared test Redis. 8 threads × 50 non-atomic decrements
 * of a stock kept in Redis leave exactly 400 of 800, with no overlapping holds, and a
 * lock taken by the application is a key in the test Redis.
 */
@SpringBootTest
@WithRedisTestServer
class WithRedisTestServerLockingTests {

	@RegisterExtension
	static final SharedRedisConnection TEST_REDIS = new SharedRedisConnection();

	@Autowired
	private StockService stock;

	@Autowired
	private LockClient lockClient;

	@Test
	void decrementsAreSerializedUnderContention() throws Exception {
		String sku = "test:sku:" + UUID.randomUUID();
		this.stock.set(sku, 800);
		ConcurrentRunner.run(8, 50, (thread) -> this.stock.decrement(sku));
		assertThat(this.stock.get(sku)).isEqualTo(400);
		this.stock.holds().assertSerial(400);
	}

	@Test
	void locksAreKeysInTheTestRedis() {
		String key = "test:lock:" + UUID.randomUUID();
		assertThat(this.lockClient).isInstanceOf(RedisLockClient.class);
		String redisKey;
		try (LockHandle lock = this.lockClient.lock(key)) {
			redisKey = lock.key();
			assertThat(TEST_REDIS.template().hasKey(redisKey)).isTrue();
		}
		assertThat(TEST_REDIS.template().hasKey(redisKey)).isFalse();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(StockService.class)
	static class StockApplication {

	}

	static class StockService {

		private final StringRedisTemplate redis;

		private final HoldLog holds = new HoldLog();

		StockService(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@DistributedLock(key = "'lock:' + #sku", waitTime = "1m")
		public void decrement(String sku) {
			long start = System.nanoTime();
			int left = get(sku);
			set(sku, left - 1);
			this.holds.record(start, System.nanoTime());
		}

		public int get(String sku) {
			return Integer.parseInt(this.redis.opsForValue().get(sku));
		}

		public void set(String sku, int stock) {
			this.redis.opsForValue().set(sku, String.valueOf(stock));
		}

		public HoldLog holds() {
			return this.holds;
		}

	}

}
