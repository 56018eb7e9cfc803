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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 200 reactive chains, subscribed on several threads, increment one Redis value by
 * read-modify-write under the reactive client's lock, most of them handed the lock over
 * by the previous holder: every increment counts, and no lease is reported lost (a
 * hand-over confirmation that Redis runs after the short hold was released once made the
 * release fail with {@code LockLeaseLostException}).
 */
class ReactiveRedisLockContentionTests {

	private final AtomicInteger leasesLost = new AtomicInteger();

	private LockFixture fixture;

	private ReactiveRedisLockClient reactive;

	private ReactiveStringRedisTemplate template;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), new LockListener() {

			@Override
			public void leaseLost(LockHandle handle) {
				ReactiveRedisLockContentionTests.this.leasesLost.incrementAndGet();
			}

		});
		this.template = new ReactiveStringRedisTemplate(this.fixture.connectionFactory);
		this.reactive = new ReactiveRedisLockClient(this.fixture.client, this.template);
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void everyIncrementCountsAndNoLeaseIsReportedLost() {
		String key = TestRedis.uniqueKey("reactive-contention");
		String value = key + ":value";
		LockOptions options = new LockOptions(Duration.ofSeconds(60), null);
		Mono<Void> increment = this.reactive.withLock(key, options,
				this.template.opsForValue()
					.get(value)
					.map(Long::parseLong)
					.defaultIfEmpty(0L)
					.flatMap((current) -> this.template.opsForValue().set(value, Long.toString(current + 1)))
					.then());
		Flux.range(0, 200)
			.flatMap((i) -> increment.repeat(2).then().subscribeOn(Schedulers.parallel()), 200)
			.blockLast(Duration.ofSeconds(120));
		assertThat(this.template.opsForValue().get(value).block(Duration.ofSeconds(5))).isEqualTo("600");
		assertThat(this.leasesLost).hasValue(0);
	}

}
