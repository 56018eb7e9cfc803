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

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A lock asked for inside a Redis transaction or pipeline that the calling thread has
 * open on the client's own template would get its reply only with the transaction's: it
 * is refused, with a message that says so, and nothing is written.
 */
class LockInsideRedisTransactionTests {

	private static final LockOptions NO_WAIT = LockOptions.renewing(Duration.ZERO);

	private LockFixture fixture;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void lockInsideATransactionOfTheSameTemplateIsRefused() {
		String key = TestRedis.uniqueKey("in-multi");
		this.fixture.redis.execute(new SessionCallback<@Nullable Object>() {

			@Override
			@SuppressWarnings("unchecked")
			public <K, V> @Nullable Object execute(RedisOperations<K, V> operations) throws DataAccessException {
				operations.multi();
				try {
					assertThatIllegalStateException()
						.isThrownBy(() -> LockInsideRedisTransactionTests.this.fixture.client.tryLock(key, NO_WAIT))
						.withMessageContaining("inside a Redis pipeline or transaction");
				}
				finally {
					operations.discard();
				}
				return null;
			}

		});
		assertThat(this.fixture.redis.hasKey(key)).as("nothing written").isFalse();
		try (LockHandle handle = this.fixture.client.tryLock(key, NO_WAIT).orElseThrow()) {
			assertThat(handle.isLeaseLost()).as("taken outside the transaction").isFalse();
		}
	}

}
