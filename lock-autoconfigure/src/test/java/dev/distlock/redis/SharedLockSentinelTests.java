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
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisSentinelDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read-write lock on a Redis master with 2 replicas and 3 Sentinels, between two
 * instances whose lock clients Spring Boot builds from
 * {@code spring.data.redis.sentinel.*}: readers hold together on the master the Sentinels
 * name, and a queued writer is handed the lock by a message on the classic channel its
 * instance subscribes to (no sharded channels there).
 */
class SharedLockSentinelTests {

	private static final LockOptions READ = LockOptions.renewing(Duration.ofSeconds(10)).withMode(LockMode.READ);

	private static final LockOptions WRITE = READ.withMode(LockMode.WRITE);

	/** A thread per blocking caller. */
	private static final Executor THREADS = (task) -> new Thread(task).start();

	private static RedisSentinelDeployment sentinel;

	private static BootLockInstance one;

	private static BootLockInstance two;

	@BeforeAll
	static void start() {
		sentinel = RedisSentinelDeployment.start();
		String[] properties = { "spring.data.redis.sentinel.master=" + sentinel.masterName(),
				"spring.data.redis.sentinel.nodes=" + sentinel.sentinelNodes() };
		one = BootLockInstance.start(properties);
		two = BootLockInstance.start(properties);
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable closeable : new AutoCloseable[] { one, two, sentinel }) {
			try {
				if (closeable != null) {
					closeable.close();
				}
			}
			catch (Exception ex) {
				// Closing the rest matters more.
			}
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void readersHoldTogetherAndAQueuedWriterIsHandedTheLockByClassicMessage() throws Exception {
		String key = "lock:shared:sentinel";
		RedisServerProcess master = sentinel.master();
		String lockKey = one.lockKey(key);
		assertThat(one.client.monitor().shardedReleaseSubscription()).as("sharded channels").isEmpty();
		LockHandle first = one.client.lock(key, READ);
		LockHandle second = two.client.tryLock(key, READ.withWaitTime(Duration.ZERO)).orElseThrow();
		assertThat((List<?>) RedisAdminCommands.call(master, "ZRANGE", lockKey, "0", "-1")).as("readers on the master")
			.hasSize(2)
			.allMatch((member) -> ((String) member).startsWith("r."));
		long handOversBefore = one.waiter().handOvers();
		long spublishBefore = NodeTraffic.commandCalls(master, "spublish");
		CompletableFuture<LockHandle> writer = CompletableFuture.supplyAsync(() -> one.client.lock(key, WRITE),
				THREADS);
		await().atMost(Duration.ofSeconds(10)).until(() -> one.queued(key) == 1);
		// On another thread: the test's thread holds a read of two already, which it may
		// re-enter.
		assertThat(
				CompletableFuture.supplyAsync(() -> two.client.tryLock(key, READ.withWaitTime(Duration.ZERO)), THREADS)
					.get(10, TimeUnit.SECONDS))
			.as("a reader after the queued writer")
			.isEmpty();
		second.release();
		assertThat(writer).as("still read by the first reader").isNotDone();
		first.release();
		try (LockHandle written = writer.get(20, TimeUnit.SECONDS)) {
			assertThat(one.waiter().handOvers() - handOversBefore).as("woken by the message").isEqualTo(1);
			assertThat(NodeTraffic.commandCalls(master, "spublish") - spublishBefore).isZero();
			assertThat((List<Object>) RedisAdminCommands.call(master, "PUBSUB", "NUMSUB", one.client.releaseChannel()))
				.as("the writer's instance on its classic channel")
				.containsExactly(one.client.releaseChannel(), 1L);
			assertThat(written.fencingToken()).isGreaterThan(first.fencingToken()).isGreaterThan(second.fencingToken());
		}
		assertThat(RedisAdminCommands.call(master, "EXISTS", lockKey)).isEqualTo(0L);
	}

}
