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

package dev.distlock.memory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.SharedRedisConnection;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The in-memory client tells its listeners the same events, in the same order, as the
 * Redis client (as auto-configured, against the shared test Redis): each scenario runs
 * against both, and both must give the sequence written here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockEventParityTests {

	private static final Duration LONG_LEASE = Duration.ofSeconds(30);

	@RegisterExtension
	static final SharedRedisConnection REDIS = new SharedRedisConnection();

	private final EventRecorder events = new EventRecorder();

	private RedisLockClient redisClient;

	private InMemoryLockClient inMemoryClient;

	@BeforeAll
	void start() {
		this.redisClient = RedisLockClient.builder(REDIS.template())
			.releaseMessages(true)
			.listener(this.events)
			.build();
		this.redisClient.start();
		this.inMemoryClient = InMemoryLockClient.builder().listener(this.events).build();
	}

	@AfterAll
	void stop() {
		this.redisClient.close();
	}

	Stream<LockClient> clients() {
		return Stream.of(this.redisClient, this.inMemoryClient);
	}

	@ParameterizedTest
	@MethodSource("clients")
	void holdThatIsReleased(LockClient client) {
		String key = TestRedis.uniqueKey("parity-hold");
		client.lock(key, fixed(Duration.ZERO)).release();
		assertThat(this.events.of(key)).containsExactly("acquired", "released");
	}

	@ParameterizedTest
	@MethodSource("clients")
	void reentrantHoldsAreNotReported(LockClient client) {
		String key = TestRedis.uniqueKey("parity-reentry");
		LockHandle outer = client.lock(key, fixed(Duration.ZERO));
		client.lock(key, fixed(Duration.ZERO)).release();
		outer.release();
		assertThat(this.events.of(key)).containsExactly("acquired", "released");
	}

	@ParameterizedTest
	@MethodSource("clients")
	void singleAttemptOnAHeldLock(LockClient client) {
		String key = TestRedis.uniqueKey("parity-once");
		try (LockHandle held = client.lock(key, fixed(Duration.ZERO))) {
			Thread other = inOtherThread(() -> assertThat(client.tryLock(key, fixed(Duration.ZERO))).isEmpty());
			assertThat(this.events.of(key, other)).containsExactly("notAcquired");
		}
	}

	@ParameterizedTest
	@MethodSource("clients")
	void waiterThatIsHandedTheLock(LockClient client) {
		String key = TestRedis.uniqueKey("parity-wait");
		LockHandle held = client.lock(key, fixed(Duration.ZERO));
		AtomicReference<Thread> waiter = new AtomicReference<>();
		CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture.supplyAsync(() -> {
			waiter.set(Thread.currentThread());
			return client.tryLock(key, fixed(Duration.ofSeconds(20)));
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> this.events.of(key).contains("startedWaiting"));
		held.release();
		acquired.join().orElseThrow().release();
		assertThat(this.events.of(key, waiter.get())).containsExactly("startedWaiting", "stoppedWaiting", "acquired");
	}

	@ParameterizedTest
	@MethodSource("clients")
	void waiterThatRunsOutOfTime(LockClient client) {
		String key = TestRedis.uniqueKey("parity-timeout");
		try (LockHandle held = client.lock(key, fixed(Duration.ZERO))) {
			Thread other = inOtherThread(
					() -> assertThat(client.tryLock(key, fixed(Duration.ofMillis(200)))).isEmpty());
			assertThat(this.events.of(key, other)).containsExactly("startedWaiting", "stoppedWaiting", "notAcquired");
		}
	}

	@ParameterizedTest
	@MethodSource("clients")
	void waiterThatIsInterrupted(LockClient client) throws InterruptedException {
		String key = TestRedis.uniqueKey("parity-interrupt");
		try (LockHandle held = client.lock(key, fixed(Duration.ZERO))) {
			Thread waiter = new Thread(() -> client.tryLock(key, fixed(Duration.ofSeconds(20))));
			waiter.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> this.events.of(key).contains("startedWaiting"));
			waiter.interrupt();
			waiter.join(10_000);
			assertThat(this.events.of(key, waiter)).containsExactly("startedWaiting", "stoppedWaiting", "notAcquired");
		}
	}

	@ParameterizedTest
	@MethodSource("clients")
	void releaseAfterTheLeaseRanOut(LockClient client) {
		String key = TestRedis.uniqueKey("parity-lost");
		LockHandle handle = client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(100)));
		await().atMost(Duration.ofSeconds(5)).until(handle::isLeaseLost);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		assertThat(this.events.of(key)).containsExactly("acquired", "leaseLost", "released");
	}

	@ParameterizedTest
	@MethodSource("clients")
	void reentryAfterTheLeaseRanOut(LockClient client) {
		String key = TestRedis.uniqueKey("parity-reentry-lost");
		LockHandle handle = client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(100)));
		await().atMost(Duration.ofSeconds(5)).until(handle::isLeaseLost);
		assertThatExceptionOfType(LockLeaseLostException.class)
			.isThrownBy(() -> client.lock(key, fixed(Duration.ZERO)));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		assertThat(this.events.of(key)).containsExactly("acquired", "leaseLost", "released");
	}

	private static LockOptions fixed(Duration waitTime) {
		return new LockOptions(waitTime, LONG_LEASE);
	}

	/** Runs an action on a thread of its own, and returns the thread once it ended. */
	private static Thread inOtherThread(Runnable action) {
		AtomicReference<Thread> thread = new AtomicReference<>();
		CompletableFuture.runAsync(() -> {
			thread.set(Thread.currentThread());
			action.run();
		}).join();
		return thread.get();
	}

}
