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

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.redis.wait.JitteredBackoffWaiter;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 16 threads × 200 non-atomic GET/SET increments of a Redis counter under one lock must
 * give exactly 3,200 with no overlapping holds: through the client, through the
 * annotation, and through two application contexts (two instances) sharing one Redis.
 */
class ConcurrentIncrementTests {

	private static final int THREADS = 16;

	private static final int INCREMENTS = 200;

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final StringRedisTemplate redis = REDIS.template();

	@Test
	void programmaticClientSerializesIncrements() throws Exception {
		LockClient client = new RedisLockClient(redis, JitteredBackoffWaiter.standard(), "",
				new LockOptions(Duration.ofMinutes(1), Duration.ofSeconds(30)));
		String counter = TestRedis.uniqueKey("counter");
		HoldLog log = new HoldLog();
		ConcurrentRunner.run(THREADS, INCREMENTS, (thread) -> client.run("lock:" + counter, client.defaultOptions(),
				() -> increment(redis, counter, log)));
		assertThat(redis.opsForValue().get(counter)).isEqualTo(String.valueOf(THREADS * INCREMENTS));
		log.assertSerial(THREADS * INCREMENTS);
	}

	@Test
	void annotatedMethodSerializesIncrements() throws Exception {
		String counter = TestRedis.uniqueKey("counter");
		runner().run((context) -> {
			Counter bean = context.getBean(Counter.class);
			ConcurrentRunner.run(THREADS, INCREMENTS, (thread) -> bean.increment(counter));
			assertThat(redis.opsForValue().get(counter)).isEqualTo(String.valueOf(THREADS * INCREMENTS));
			bean.log().assertSerial(THREADS * INCREMENTS);
		});
	}

	@Test
	void twoApplicationContextsSharingRedisSerializeIncrements() throws Exception {
		String counter = TestRedis.uniqueKey("counter");
		HoldLog log = new HoldLog();
		runner().withBean(HoldLog.class, () -> log)
			.run((first) -> runner().withBean(HoldLog.class, () -> log).run((second) -> {
				Counter[] instances = { first.getBean(Counter.class), second.getBean(Counter.class) };
				assertThat(instances[0]).isNotSameAs(instances[1]);
				ConcurrentRunner.run(THREADS, INCREMENTS, (thread) -> instances[thread % 2].increment(counter));
			}));
		assertThat(redis.opsForValue().get(counter)).isEqualTo(String.valueOf(THREADS * INCREMENTS));
		log.assertSerial(THREADS * INCREMENTS);
	}

	private ApplicationContextRunner runner() {
		return LockTestContexts.withSharedRedis().withUserConfiguration(CounterConfig.class);
	}

	static void increment(StringRedisTemplate redis, String counter, HoldLog log) {
		long start = System.nanoTime();
		String value = redis.opsForValue().get(counter);
		redis.opsForValue().set(counter, String.valueOf((value != null) ? Long.parseLong(value) + 1 : 1));
		log.record(start, System.nanoTime());
	}

	@Configuration(proxyBeanMethods = false)
	static class CounterConfig {

		@Bean
		Counter counter(StringRedisTemplate redis, org.springframework.beans.factory.ObjectProvider<HoldLog> log) {
			return new Counter(redis, log.getIfAvailable(HoldLog::new));
		}

	}

	static class Counter {

		private final HoldLog log;

		private final StringRedisTemplate redis;

		Counter(StringRedisTemplate redis, HoldLog log) {
			this.redis = redis;
			this.log = log;
		}

		public HoldLog log() {
			return this.log;
		}

		@DistributedLock(key = "'lock:' + #counter", waitTime = "1m")
		public void increment(String counter) {
			ConcurrentIncrementTests.increment(this.redis, counter, this.log);
		}

	}

}
