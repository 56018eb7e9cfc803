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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockException;
import dev.distlock.LockFailureAction;
import dev.distlock.LockUnavailableException;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Redis being unreachable is not "someone else holds the lock":
 * {@code onNotAcquired = SKIP} still throws {@link LockUnavailableException}, and only
 * {@code onUnavailable} skips or falls back. Each test stops a dedicated Redis server
 * while the application runs.
 */
class UnavailableFailureStrategyTests {

	private static RedisTestServer server;

	@BeforeAll
	static void startServer() {
		server = RedisTestServers.startDedicated();
	}

	@AfterAll
	static void closeServer() {
		server.close();
	}

	@Test
	void skipWhenNotAcquiredStillThrowsWhenRedisIsDown() {
		runWithRedisStopped((guarded) -> {
			assertThatExceptionOfType(LockUnavailableException.class).isThrownBy(() -> guarded.skipWhenBusy("down"))
				.withMessageContaining("guarded:down");
			assertThat(guarded.calls()).as("neither invoked nor skipped").isEmpty();
		});
	}

	@Test
	void skipWhenUnavailableSkips() {
		runWithRedisStopped((guarded) -> {
			assertThat(guarded.skipWhenDown("down")).isEmpty();
			assertThat(guarded.calls()).isEmpty();
		});
	}

	@Test
	void fallbackWhenUnavailableFallsBackWithTheException() {
		runWithRedisStopped((guarded) -> {
			assertThat(guarded.fallBackWhenDown("down")).isEqualTo("degraded down");
			assertThat(guarded.calls()).containsExactly("degraded(down)");
			assertThat(guarded.failures()).singleElement()
				.isInstanceOf(LockUnavailableException.class)
				.extracting((failure) -> ((LockUnavailableException) failure).getKey())
				.isEqualTo("guarded:down");
		});
	}

	private void runWithRedisStopped(Consumer<Guarded> action) {
		server.start();
		LockTestContexts.withRedis(server).withUserConfiguration(Config.class).run((context) -> {
			Guarded guarded = context.getBean(Guarded.class);
			assertThat(guarded.skipWhenBusy("up")).isEqualTo(1);
			assertThat(guarded.skipWhenDown("up")).containsExactly("ran");
			assertThat(guarded.fallBackWhenDown("up")).isEqualTo("ran up");
			guarded.calls().clear();
			server.stop();
			try {
				action.accept(guarded);
			}
			finally {
				server.start();
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

	}

	static class Guarded {

		private final List<String> calls = new CopyOnWriteArrayList<>();

		private final List<DistributedLockException> failures = new CopyOnWriteArrayList<>();

		List<String> calls() {
			return this.calls;
		}

		List<DistributedLockException> failures() {
			return this.failures;
		}

		@DistributedLock(key = "'guarded:' + #id", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
		public int skipWhenBusy(String id) {
			this.calls.add("skipWhenBusy(" + id + ")");
			return 1;
		}

		@DistributedLock(key = "'guarded:' + #id", waitTime = "0", onUnavailable = LockFailureAction.SKIP)
		public List<String> skipWhenDown(String id) {
			this.calls.add("skipWhenDown(" + id + ")");
			return List.of("ran");
		}

		@DistributedLock(key = "'guarded:' + #id", waitTime = "0", onNotAcquired = LockFailureAction.SKIP,
				onUnavailable = LockFailureAction.FALLBACK, fallbackMethod = "degraded")
		public String fallBackWhenDown(String id) {
			this.calls.add("fallBackWhenDown(" + id + ")");
			return "ran " + id;
		}

		String degraded(String id, DistributedLockException failure) {
			this.calls.add("degraded(" + id + ")");
			this.failures.add(failure);
			return "degraded " + id;
		}

	}

}
