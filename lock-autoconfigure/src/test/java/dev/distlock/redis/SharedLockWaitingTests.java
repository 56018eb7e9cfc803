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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * How waiters of shared locks wait, and what a multi-key lock says when one of its keys
 * is a read-write lock, on real Redis. Both tests failed before their fixes (a reader
 * behind a queued writer sent an attempt every millisecond; a bare WRONGTYPE named the
 * wrong key).
 */
class SharedLockWaitingTests {

	private static final LockOptions READ = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.READ);

	private static final LockOptions WRITE = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.WRITE);

	/**
	 * A reader queued behind a queued writer (readers hold) waits for a hand-over or its
	 * 1 s backstop, not the 0 ms that shared-acquire.lua once answered when only earlier
	 * waiters blocked it (the waiters read it as a lease ending in 1 ms, and sent an
	 * attempt about every millisecond). Counted in Redis (INFO commandstats) on a server
	 * of this test's own.
	 */
	@Test
	void readerBehindAQueuedWriterDoesNotPollRedisEveryMillisecond() throws Exception {
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture holder = LockFixture.start(server, Duration.ofSeconds(30));
				LockFixture writerSide = LockFixture.start(server, Duration.ofSeconds(30));
				LockFixture lateReader = LockFixture.start(server, Duration.ofSeconds(30))) {
			String key = TestRedis.uniqueKey("probe-poll");
			LockHandle reader = holder.client.lock(key, READ);
			CompletableFuture<Boolean> writer = CompletableFuture.supplyAsync(() -> {
				try (LockHandle handle = writerSide.client.lock(key, WRITE)) {
					return true;
				}
			});
			await().atMost(Duration.ofSeconds(5))
				.until(() -> Long.valueOf(1)
					.equals(holder.redis.opsForList().size(LockFixture.KEYSPACE.queueKey(key))));
			long before = ReadWriteLockTests.scriptCalls(holder);
			assertThat(lateReader.client.tryLock(key, READ.withWaitTime(Duration.ofMillis(500))))
				.as("a reader that came after the queued writer")
				.isEmpty();
			long sent = ReadWriteLockTests.scriptCalls(holder) - before;
			reader.release();
			assertThat(writer.get(10, TimeUnit.SECONDS)).isTrue();
			// Over half a second: the writer's pause (the reader's 30 s lease, 1 s
			// backstop)
			// and the late reader's pauses (hand-over message or 1 s backstop) allow a
			// handful of attempts, plus one to leave the queue.
			assertThat(sent).as("scripts sent while a late reader waited half a second").isLessThan(10);
		}
	}

	/**
	 * The first attempt of a multi-key lock (multi-acquire.lua) meets a key that is a
	 * read-write lock: the failure names that key and both kinds, as a single-key
	 * attempt's does, not Redis's bare WRONGTYPE about the first key.
	 */
	@Test
	void multiKeyLockOfAReadWriteKeyNamesBothKinds() {
		try (LockFixture first = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
				LockFixture second = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30))) {
			String key = TestRedis.uniqueKey("probe-multi-kind");
			String other = TestRedis.uniqueKey("probe-multi-other");
			try (LockHandle reader = first.client.lock(key, READ)) {
				assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(
						() -> second.client.tryLock(List.of(key, other), LockOptions.renewing(Duration.ofSeconds(1))))
					.withMessageContaining("is a read-write lock, this call asks for an exclusive lock");
			}
		}
	}

}
