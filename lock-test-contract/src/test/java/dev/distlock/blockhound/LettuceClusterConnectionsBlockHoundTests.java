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

package dev.distlock.blockhound;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster client opens a connection to a node while another thread holds the state lock
 * of Lettuce's cluster connection provider, as happens when two node connections open at
 * once: the event loop that sets the new connection up waits for that lock, and the
 * command gets its answer once the lock is free, with no blocking call reported
 * ({@link LettuceClusterConnectionLockAllowance}). Without the allowance, BlockHound
 * threw on that event loop and Lettuce failed the node's connection: the command failed
 * with "Unable to connect", and a lock on a cluster in the contract tests with "Redis
 * connection failed", now and then. The test holds the lock itself, so the wait happens
 * every time, unless the set-up runs on the test's thread, which holds the lock already:
 * then it tries again with a new client, up to five times.
 */
class LettuceClusterConnectionsBlockHoundTests {

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
		RecordedBlockingCalls.drain();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
		RecordedBlockingCalls.drain();
	}

	@Test
	void nodeConnectionSetUpThatWaitsForTheProvidersStateLockIsNotReportedAsBlocking() throws Exception {
		int attempts = 0;
		boolean waited = false;
		while (!waited && attempts < 5) {
			attempts++;
			waited = openNodeConnectionWhileHoldingTheStateLock();
		}
		assertThat(waited).as("an event loop waited for the state lock in one of %d attempts", attempts).isTrue();
		assertThat(RecordedBlockingCalls.drain()).as("blocking calls BlockHound reported").isEmpty();
	}

	/**
	 * Holds the provider's state lock while a fresh client's first command to the key's
	 * master opens the connection to it, and checks the command's answer once the lock is
	 * free.
	 * @return whether an event loop waited for the lock; {@code false} if the command
	 * completed without anyone waiting, as when the set-up ran on this thread, which
	 * holds the lock already
	 */
	private static boolean openNodeConnectionWhileHoldingTheStateLock() throws Exception {
		RedisServerProcess node = cluster.nodes().get(0);
		RedisClusterClient client = RedisClusterClient.create(RedisURI.create(node.host(), node.port()));
		try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
			ReentrantLock stateLock = stateLockOf(connection);
			CompletableFuture<Long> exists;
			boolean waited;
			stateLock.lock();
			try {
				// The first command to the key's master opens the connection to it.
				exists = connection.async().exists("test:blockhound:cluster").toCompletableFuture();
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
				while (!stateLock.hasQueuedThreads() && !exists.isDone() && System.nanoTime() - deadline < 0) {
					LockSupport.parkNanos(100_000);
				}
				waited = stateLock.hasQueuedThreads();
				assertThat(waited || exists.isDone())
					.as("an event loop waits for the state lock or the command completed (the command: %s)", exists)
					.isTrue();
			}
			finally {
				stateLock.unlock();
			}
			assertThat(exists.get(10, TimeUnit.SECONDS)).isZero();
			return waited;
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	/**
	 * The provider's lock, which Lettuce takes on event loops while it sets up a node.
	 */
	private static ReentrantLock stateLockOf(StatefulRedisClusterConnection<String, String> connection)
			throws ReflectiveOperationException {
		Object writer = accessible(connection.getClass().getMethod("getChannelWriter")).invoke(connection);
		Object provider = accessible(writer.getClass().getMethod("getClusterConnectionProvider")).invoke(writer);
		Field stateLock = provider.getClass().getDeclaredField("stateLock");
		stateLock.setAccessible(true);
		return (ReentrantLock) stateLock.get(provider);
	}

	private static Method accessible(Method method) {
		method.setAccessible(true);
		return method;
	}

}
