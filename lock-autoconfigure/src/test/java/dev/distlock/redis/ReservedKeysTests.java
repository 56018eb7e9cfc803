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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.types.Expiration;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.OwnRedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A lock key cannot collide with distlock's own keys, and a key of distlock's that holds
 * data of another type fails a lock with {@code WRONGTYPE} before its script has written
 * anything: no ghost lock key, no queue entry without expiry, and other locks keep
 * working.
 */
class ReservedKeysTests {

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private LockFixture fixture;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(REDIS.server(), Duration.ofSeconds(30));
		this.fixture.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
	}

	@AfterEach
	void close() {
		this.fixture.close();
	}

	@Test
	void lockOnTheFencingCounterIsRefusedBeforeAnythingIsSent() {
		assertThatExceptionOfType(InvalidLockKeyException.class)
			.isThrownBy(() -> this.fixture.client.tryLock("distlock:fence", LockOptions.renewing(Duration.ZERO)))
			.withMessageContaining("'distlock:fence' is in the namespace \"distlock:\"");
		assertThat(keys()).isEmpty();
		try (LockHandle other = this.fixture.client.lock("lock:sku:1", LockOptions.renewing(Duration.ZERO))) {
			assertThat(other.fencingToken()).isPositive();
		}
	}

	@Test
	void annotatedKeyInTheReservedNamespaceNamesTheMethodAndExpression() {
		LockTestContexts.withRedis(REDIS.server()).withBean(KeyedService.class).run((context) -> {
			assertThatExceptionOfType(LockKeyExpressionException.class)
				.isThrownBy(() -> context.getBean(KeyedService.class).work("distlock:queue:q2"))
				.withMessageStartingWith(
						"Lock key expression \"#s\" on dev.distlock.redis.ReservedKeysTests$KeyedService.work(String) "
								+ "yielded a key that was refused: Lock key 'distlock:queue:q2' is in the namespace")
				.withCauseInstanceOf(InvalidLockKeyException.class);
			assertThat(context.getBean(KeyedService.class).work("q2")).isEqualTo("ran");
		});
		assertThat(keys()).as("the counter of the lock on q2, and nothing else").containsExactly("distlock:fence");
	}

	@Test
	void annotatedKeyLongerThanTheConfiguredLimitIsRefusedWithAShortMessage() {
		LockTestContexts.withRedis(REDIS.server())
			.withPropertyValues("distlock.max-key-length=16")
			.withBean(KeyedService.class)
			.run((context) -> {
				assertThatExceptionOfType(LockKeyExpressionException.class)
					.isThrownBy(() -> context.getBean(KeyedService.class).work("k".repeat(1024 * 1024)))
					.withMessageContaining("has 1048576 characters, more than the 16 allowed")
					.withMessageContaining("distlock.max-key-length")
					.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(800));
				assertThat(context.getBean(KeyedService.class).work("k".repeat(16))).isEqualTo("ran");
			});
	}

	@Test
	void counterOfAnotherTypeFailsTheAcquireBeforeItSetsTheLock() {
		this.fixture.redis.opsForList().rightPush("distlock:fence", "not a counter");
		assertThatExceptionOfType(LockMisconfigurationException.class)
			.isThrownBy(() -> this.fixture.client.tryLock("lock:sku:2", LockOptions.renewing(Duration.ZERO)))
			.withMessageContaining("WRONGTYPE");
		this.fixture.redis.opsForValue().set("distlock:fence", "not a number");
		assertThatExceptionOfType(LockMisconfigurationException.class)
			.isThrownBy(() -> this.fixture.client.tryLock("lock:sku:2", LockOptions.renewing(Duration.ZERO)))
			.withMessageContaining("WRONGTYPE the fencing counter distlock:fence does not hold a number");
		assertThat(keys()).as("no ghost lock key").containsExactly("distlock:fence");
	}

	@Test
	void queueOfAnotherTypeFailsWaiterAndReleaseBeforeTheyWriteAnything() {
		LockHandle held = this.fixture.client.lock("q2", LockOptions.renewing(Duration.ZERO));
		String holderValue = this.fixture.redis.opsForValue().get("q2");
		this.fixture.redis.opsForValue().set("distlock:queue:q2", "not a queue");
		LockFixture other = LockFixture.start(REDIS.server(), Duration.ofSeconds(30));
		try {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> other.client.tryLock("q2", LockOptions.renewing(Duration.ofSeconds(2))))
				.withMessageContaining("WRONGTYPE distlock:queue:q2 holds a string, not a list");
		}
		finally {
			other.close();
		}
		assertThat(keys()).as("no queue entry left without expiry")
			.containsExactlyInAnyOrder("q2", "distlock:fence", "distlock:queue:q2");
		// As if a waiter had queued: the release runs the script that hands over, which
		// reads the queue (a lock nobody waits for is released without reading it).
		this.fixture.redis.execute((RedisCallback<Object>) (connection) -> connection.stringCommands()
			.set("q2".getBytes(StandardCharsets.UTF_8), (holderValue + "+queued").getBytes(StandardCharsets.UTF_8),
					Expiration.keepTtl(), SetOption.upsert()));
		assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(held::release)
			.withMessageContaining("WRONGTYPE distlock:queue:q2 holds a string, not a list");
		assertThat(this.fixture.redis.opsForValue().get("q2")).as("the lock, untouched by the failed release")
			.isEqualTo(holderValue + "+queued");
		assertThat(this.fixture.redis.getExpire("q2")).as("left to its lease").isBetween(1L, 30L);
	}

	@Test
	void lockNobodyWaitsForIsReleasedWithoutReadingItsQueue() {
		LockHandle held = this.fixture.client.lock("q3", LockOptions.renewing(Duration.ZERO));
		this.fixture.redis.opsForValue().set("distlock:queue:q3", "not a queue");
		held.release();
		assertThat(this.fixture.redis.hasKey("q3")).as("the lock, deleted").isFalse();
		assertThat(this.fixture.redis.opsForValue().get("distlock:queue:q3")).as("the other key, as it was")
			.isEqualTo("not a queue");
		assertThat(held.isLeaseLost()).isFalse();
	}

	private Set<String> keys() {
		return this.fixture.redis.keys("*");
	}

	static class KeyedService {

		@DistributedLock(key = "#s", waitTime = "0")
		public String work(String s) {
			return "ran";
		}

	}

}
