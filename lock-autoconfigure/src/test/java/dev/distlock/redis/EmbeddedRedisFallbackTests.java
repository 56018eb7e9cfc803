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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The redis-server shipped in {@code embedded-redis}, which the sample app and the tests
 * fall back to where no {@code redis-server} is on the {@code PATH}, is Redis 6.2: the
 * scripts must run there too, although distlock asks for Redis 7.0 (a release checks the
 * permission to tell a waiter ahead only where Redis 7.0 lets a script ask).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedRedisFallbackTests {

	private static final LockOptions WAIT_LONG = new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30));

	private RedisServerProcess server;

	private LockFixture holderSide;

	private LockFixture waiterSide;

	@BeforeAll
	void start() {
		this.server = RedisServerProcess.startEmbeddedOnFreePort();
		this.holderSide = LockFixture.start(this.server, Duration.ofSeconds(30), 0);
		this.waiterSide = LockFixture.start(this.server, Duration.ofSeconds(30), 0);
	}

	@AfterAll
	void stop() {
		this.holderSide.close();
		this.waiterSide.close();
		this.server.close();
	}

	@Test
	void serverIsRedis62() {
		assertThat(this.holderSide.redis.execute((RedisCallback<Object>) (
				connection) -> connection.serverCommands().info("server").getProperty("redis_version")))
			.asString()
			.startsWith("6.2.");
	}

	@Test
	void releaseHandsTheLockToAWaiterOfAnotherClient() {
		LockHandle held = this.holderSide.client.lock("sku:1", WAIT_LONG);
		long heldToken = held.fencingToken();
		CompletableFuture<Optional<LockHandle>> waiting = CompletableFuture
			.supplyAsync(() -> this.waiterSide.client.tryLock("sku:1", WAIT_LONG));
		await().until(() -> this.waiterSide.waiter.waiting() == 1);
		long handOvers = this.waiterSide.waiter.handOvers();
		held.release();
		LockHandle acquired = waiting.join().orElseThrow();
		assertThat(this.waiterSide.waiter.handOvers() - handOvers).as("told by the release").isEqualTo(1);
		assertThat(acquired.fencingToken()).isGreaterThan(heldToken);
		acquired.release();
		assertThat(this.holderSide.redis.hasKey("sku:1")).as("released").isFalse();
	}

	@Test
	void healthCheckLocksQueuesAndHandsOver() {
		Health health = new DistributedLockHealthIndicator(this.holderSide.client.monitor()).health();
		assertThat(health.getStatus()).as(health::toString).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("locking", "ok");
	}

}
