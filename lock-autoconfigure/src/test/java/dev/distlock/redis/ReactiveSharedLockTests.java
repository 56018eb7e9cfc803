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
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shared locks through the reactive client, which uses the same shared scripts as the
 * blocking one: reactive and blocking readers hold together and exclude a writer, a
 * semaphore counts reactive holders, and a chain holding the read lock may not take the
 * write lock.
 */
class ReactiveSharedLockTests {

	private static final LockOptions READ = new LockOptions(Duration.ZERO, Duration.ofSeconds(30))
		.withMode(LockMode.READ);

	private static final LockOptions WRITE = READ.withMode(LockMode.WRITE);

	private LockFixture fixture;

	private ReactiveRedisLockClient reactive;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
		this.reactive = new ReactiveRedisLockClient(this.fixture.client,
				new ReactiveStringRedisTemplate(this.fixture.connectionFactory));
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void reactiveAndBlockingReadersHoldTogetherAndExcludeAWriter() {
		String key = TestRedis.uniqueKey("reactive-rw");
		ReactiveLockHandle reader = this.reactive.lock(key, READ).block(Duration.ofSeconds(5));
		assertThat(reader).isNotNull();
		try (LockHandle blocking = this.fixture.client.lock(key, READ)) {
			assertThat(this.fixture.redis.opsForZSet().zCard(key)).isEqualTo(2);
			StepVerifier.create(this.reactive.tryLock(key, WRITE)).verifyComplete();
		}
		StepVerifier.create(reader.release()).verifyComplete();
		ReactiveLockHandle writer = this.reactive.lock(key, WRITE).block(Duration.ofSeconds(5));
		assertThat(writer).isNotNull();
		assertThat(writer.fencingToken()).isGreaterThan(reader.fencingToken());
		StepVerifier.create(this.reactive.tryLock(key, READ)).verifyComplete();
		StepVerifier.create(writer.release()).verifyComplete();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void semaphoreCountsReactiveHolders() {
		String key = TestRedis.uniqueKey("reactive-sem");
		LockOptions permit = new LockOptions(Duration.ZERO, Duration.ofSeconds(30)).withPermits(2);
		ReactiveLockHandle one = this.reactive.lock(key, permit).block(Duration.ofSeconds(5));
		ReactiveLockHandle two = this.reactive.lock(key, permit).block(Duration.ofSeconds(5));
		assertThat(one).isNotNull();
		assertThat(two).isNotNull();
		StepVerifier.create(this.reactive.tryLock(key, permit)).verifyComplete();
		StepVerifier.create(one.release()).verifyComplete();
		ReactiveLockHandle three = this.reactive.lock(key, permit).block(Duration.ofSeconds(5));
		assertThat(three).isNotNull();
		StepVerifier.create(two.release().then(three.release())).verifyComplete();
	}

	@Test
	void writeInsideAReadChainFails() {
		String key = TestRedis.uniqueKey("reactive-upgrade");
		Mono<String> nested = this.reactive.withLock(key, READ,
				this.reactive.withLock(key, WRITE, Mono.just("upgraded")));
		StepVerifier.create(nested).verifyError(IllegalLockUpgradeException.class);
		Mono<String> reentered = this.reactive.withLock(key, WRITE,
				this.reactive.withLock(key, READ, Mono.just("read inside write")));
		StepVerifier.create(reentered).expectNext("read inside write").verifyComplete();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

}
