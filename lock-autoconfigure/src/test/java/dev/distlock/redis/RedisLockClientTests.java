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
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link RedisLockClient} stores in Redis: prefixed keys, owner tokens and leases.
 */
class RedisLockClientTests {

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	private final AtomicInteger waits = new AtomicInteger();

	private final RedisLockClient client = new RedisLockClient(redis, (key, token) -> {
		this.waits.incrementAndGet();
		return JitteredBackoffWaiter.standard().begin(key, token);
	}, "app:", new LockOptions(Duration.ofSeconds(1), Duration.ofSeconds(30)));

	@Test
	void keyIsPrefixedAndHoldsARandomTokenWithTheLease() {
		String key = TestRedis.uniqueKey("stored");
		try (LockHandle handle = this.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(20)))) {
			assertThat(handle.key()).isEqualTo("app:" + key);
			assertThat(redis.opsForValue().get("app:" + key)).matches("[0-9a-f]{32}");
			assertThat(redis.getExpire("app:" + key)).isBetween(1L, 20L);
			assertThat(redis.hasKey(key)).as("unprefixed key untouched").isFalse();
		}
		assertThat(redis.hasKey("app:" + key)).as("released").isFalse();
	}

	@Test
	void everyAcquisitionGetsItsOwnToken() {
		String key = TestRedis.uniqueKey("tokens");
		String first;
		try (LockHandle handle = this.client.lock(key)) {
			first = redis.opsForValue().get("app:" + key);
		}
		try (LockHandle handle = this.client.lock(key)) {
			assertThat(redis.opsForValue().get("app:" + key)).isNotNull().isNotEqualTo(first);
		}
	}

	@Test
	void zeroWaitTimeTriesOnceWithoutWaiting() {
		String key = TestRedis.uniqueKey("once");
		try (LockHandle held = this.client.lock(key)) {
			int waitsBefore = this.waits.get();
			assertThat(java.util.concurrent.CompletableFuture
				.supplyAsync(() -> this.client.tryLock(key, Duration.ZERO, Duration.ofSeconds(1)))
				.join()).isEmpty();
			assertThat(this.waits).as("no wait begun").hasValue(waitsBefore);
		}
	}

	@Test
	void defaultOptionsApplyWhereACallGivesNone() {
		String key = TestRedis.uniqueKey("defaults");
		try (LockHandle handle = this.client.lock(key)) {
			assertThat(handle.leaseTime()).isEqualTo(Duration.ofSeconds(30));
			assertThat(redis.getExpire("app:" + key)).isBetween(20L, 30L);
		}
	}

	@Test
	void releaseOfALockSomeoneElseHoldsLeavesTheirKey() {
		String key = TestRedis.uniqueKey("foreign");
		LockHandle mine = this.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		redis.opsForValue().set("app:" + key, "someone-else");
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(mine::release);
		assertThat(redis.opsForValue().get("app:" + key)).isEqualTo("someone-else");
		redis.delete("app:" + key);
	}

}
