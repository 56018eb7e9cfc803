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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquire or release whose outcome is unknown is resolved in the background, by the
 * owner token, once Redis answers again: the caller gets its exception at once, and the
 * lock is not stranded for its lease, nor freed before its minimum hold has passed.
 */
class UnknownOutcomeTests {

	private static final LockOptions THIRTY_SECONDS = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

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
	void acquireWhoseReplyCameTooLateIsUndone() {
		String key = TestRedis.uniqueKey("late-reply");
		// Redis holds writes for 3s: the acquire runs after the caller's 2s command
		// timeout.
		OwnRedisServer.pauseClients(this.fixture.redis, 3000, "WRITE");
		long start = System.nanoTime();
		assertThatExceptionOfType(LockUnavailableException.class)
			.isThrownBy(() -> this.fixture.client.tryLock(key, THIRTY_SECONDS));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("one command timeout")
			.isLessThan(Duration.ofMillis(2_500));
		long answering = OwnRedisServer.awaitAnswers(this.fixture.redis);
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(Duration.ofNanos(System.nanoTime() - answering))
			.as("undone soon after Redis answered, not after 30s")
			.isLessThan(Duration.ofSeconds(3));
		try (LockHandle handle = this.fixture.client.lock(key, THIRTY_SECONDS)) {
			assertThat(handle.fencingToken()).isPositive();
		}
	}

	@Test
	void releaseThatCouldNotReachRedisIsRetriedWhenRedisIsBack() {
		String key = TestRedis.uniqueKey("lost-release");
		LockHandle handle = this.fixture.client.lock(key, THIRTY_SECONDS);
		String token = this.fixture.redis.opsForValue().get(key);
		REDIS.server().stop();
		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(handle::release);
		REDIS.server().start();
		// As a restart from an AOF file (or a promoted replica) would: the key is back,
		// with its
		// lease, before the client has reconnected.
		LettuceConnectionFactory restorer = TestRedis.connectionFactory(REDIS.server());
		TestRedis.template(restorer).opsForValue().set(key, token, Duration.ofSeconds(30));
		restorer.destroy();
		long restored = System.nanoTime();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(Duration.ofNanos(System.nanoTime() - restored)).as("released by the retry, not by the 30s lease")
			.isLessThan(Duration.ofSeconds(2));
	}

	@Test
	void releaseRetriedWhenRedisIsBackKeepsTheMinimumHold() {
		String key = TestRedis.uniqueKey("lost-release-min-hold");
		LockHandle handle = this.fixture.client.lock(key, THIRTY_SECONDS.withMinHoldTime(Duration.ofSeconds(4)));
		long granted = System.nanoTime();
		String token = this.fixture.redis.opsForValue().get(key);
		REDIS.server().stop();
		assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(handle::release)
			.withMessageStartingWith("Release of lock '" + key + "' not confirmed: Redis at " + REDIS.server().host()
					+ ":" + REDIS.server().port() + " did not answer (")
			.withMessageContaining("the release may have taken effect; it is retried in the background");
		REDIS.server().start();
		LettuceConnectionFactory restorer = TestRedis.connectionFactory(REDIS.server());
		TestRedis.template(restorer).opsForValue().set(key, token, Duration.ofSeconds(30));
		restorer.destroy();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> ("released:" + token).equals(this.fixture.redis.opsForValue().get(key)));
		await().atMost(Duration.ofSeconds(8)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(Duration.ofNanos(System.nanoTime() - granted)).as("kept for the minimum hold from the grant")
			.isGreaterThanOrEqualTo(Duration.ofSeconds(4))
			.isLessThan(Duration.ofSeconds(7));
	}

}
