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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.distlock.DistributedLockException;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What waiters and holders of one client do when Redis goes away: a wait that ends
 * because Redis is unreachable ends with {@link LockUnavailableException}, never as "not
 * acquired" (which a {@code SKIP} would hide), within the wait time plus one command
 * timeout; and a lock is never passed between the client's threads without Redis after
 * Redis came back empty.
 */
class OutageTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private final List<LockFixture> fixtures = new ArrayList<>();

	@AfterEach
	void stop() {
		REDIS.ensureRunning();
		this.fixtures.forEach(LockFixture::close);
	}

	@Test
	void waitsThatEndWhileRedisIsDownAreUnavailableNotNotAcquired() {
		LockFixture holderSide = fixture(Duration.ofSeconds(30));
		LockFixture waiterSide = fixture(Duration.ofSeconds(30));
		String key = TestRedis.uniqueKey("outage");
		holderSide.client.lock(key, LockOptions.renewing(Duration.ZERO));
		Duration waitTime = Duration.ofSeconds(3);
		List<CompletableFuture<Long>> waits = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			waits.add(CompletableFuture.supplyAsync(() -> {
				long start = System.nanoTime();
				try {
					Optional<LockHandle> handle = waiterSide.client.tryLock(key, LockOptions.renewing(waitTime));
					throw new AssertionError("a wait during the outage ended with " + handle);
				}
				catch (LockUnavailableException ex) {
					return System.nanoTime() - start;
				}
			}));
		}
		await().until(() -> waiterSide.client.monitor().waiters().size() == 4);
		REDIS.server().stop();
		for (CompletableFuture<Long> wait : waits) {
			assertThat(Duration.ofNanos(wait.join())).as("the wait time plus one command timeout")
				.isLessThanOrEqualTo(waitTime.plus(COMMAND_TIMEOUT).plusMillis(500));
		}
	}

	@Test
	void lockIsNotPassedBetweenThreadsAfterRedisCameBackEmpty() throws Exception {
		LockFixture fixture = fixture(Duration.ofSeconds(3));
		String key = TestRedis.uniqueKey("restart");
		LockHandle holder = fixture.client.lock(key, LockOptions.renewing(Duration.ZERO));
		long holderToken = holder.fencingToken();
		CompletableFuture<LockHandle> next = CompletableFuture
			.supplyAsync(() -> fixture.client.lock(key, LockOptions.renewing(Duration.ofSeconds(20))));
		await().until(() -> fixture.client.monitor().waiters().size() == 1);
		REDIS.restartEmpty(fixture.redis);
		assertThatExceptionOfType(DistributedLockException.class).as("the hold ended with Redis")
			.isThrownBy(holder::release);
		LockHandle handle = next.get(20, TimeUnit.SECONDS);
		assertThat(fixture.redis.hasKey(key)).as("acquired in the new Redis, not passed on without it").isTrue();
		assertThat(handle.fencingToken()).isGreaterThan(holderToken);
		handle.release();
	}

	private LockFixture fixture(Duration renewalLease) {
		LockFixture fixture = LockFixture.start(REDIS.server(), renewalLease);
		this.fixtures.add(fixture);
		return fixture;
	}

}
