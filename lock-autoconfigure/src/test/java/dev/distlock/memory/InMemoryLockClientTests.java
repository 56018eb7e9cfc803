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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InMemoryLockClient}: the Redis client's defaults, key rules and
 * prefix, fencing tokens that never fall below the wall clock, and listeners that cannot
 * break a lock.
 */
class InMemoryLockClientTests {

	@Test
	void failuresNameTheLock() throws Exception {
		InMemoryLockClient client = InMemoryLockClient.builder().build();
		LockOptions stock = new LockOptions(Duration.ZERO, Duration.ofMillis(50)).withName("stock");
		LockHandle stale = client.lock("sku:1", stock);
		ExecutorService otherThread = Executors.newSingleThreadExecutor();
		try {
			LockHandle other = otherThread
				// The next holder keeps the lock for as long as the test needs it: a 50
				// ms
				// lease could run out on a loaded machine before the third thread tries.
				.submit(() -> client.lock("sku:1",
						stock.withWaitTime(Duration.ofSeconds(10)).withLeaseTime(Duration.ofSeconds(30))))
				.get(20, TimeUnit.SECONDS);
			Thread third = new Thread(() -> assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> client.lock("sku:1", stock))
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("stock")));
			AtomicReference<Throwable> failure = new AtomicReference<>();
			third.setUncaughtExceptionHandler((thread, ex) -> failure.set(ex));
			third.start();
			third.join(20_000);
			assertThat(failure.get()).as("the third thread's assertion").isNull();
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(stale::release)
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("stock"));
			otherThread.submit(other::release).get(20, TimeUnit.SECONDS);
		}
		finally {
			otherThread.shutdownNow();
		}
	}

	@Test
	void defaultsAreTheRedisClientsDefaults() {
		InMemoryLockClient client = new InMemoryLockClient();
		assertThat(client.defaultOptions()).isEqualTo(LockOptions.renewing(Duration.ofSeconds(5)));
		try (LockHandle handle = client.lock("defaults")) {
			assertThat(handle.key()).isEqualTo("defaults");
			assertThat(handle.isAutoRenewing()).isTrue();
			assertThat(handle.leaseTime()).isEqualTo(Duration.ofSeconds(30));
			assertThat(handle.name()).isEqualTo(LockOptions.UNNAMED);
		}
	}

	@Test
	void keysTakeThePrefixAndFollowTheRedisClientsRules() {
		InMemoryLockClient client = InMemoryLockClient.builder().keyPrefix("app:").maxKeyLength(10).build();
		try (LockHandle handle = client.lock("sku:25", LockOptions.renewing(Duration.ZERO).withName("stock"))) {
			assertThat(handle.key()).isEqualTo("app:sku:25");
			assertThat(handle.name()).isEqualTo("stock");
		}
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> client.lock(" "))
			.withMessageContaining("is blank");
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> client.lock("x".repeat(11)))
			.withMessageContaining("distlock.max-key-length");
		assertThatExceptionOfType(InvalidLockKeyException.class).isThrownBy(() -> client.tryLock("distlock:fence"))
			.withMessageContaining("distlock:");
	}

	@Test
	void fencingTokensIncreaseAcrossKeysAndNeverFallBelowTheWallClock() {
		InMemoryLockClient client = new InMemoryLockClient();
		long clock = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		long previous = 0;
		for (int i = 0; i < 10; i++) {
			try (LockHandle handle = client.lock("fence:" + (i % 3))) {
				assertThat(handle.fencingToken()).isGreaterThan(previous).isGreaterThanOrEqualTo(clock);
				previous = handle.fencingToken();
			}
		}
	}

	@Test
	void listenerThatThrowsKeepsNeitherTheLockNorOtherListenersFromGoingOn() {
		EventRecorder events = new EventRecorder();
		InMemoryLockClient client = InMemoryLockClient.builder().listener(new LockListener() {

			@Override
			public void acquired(LockHandle handle, Duration waited) {
				throw new IllegalStateException("listener failure");
			}

		}).listener(events).build();
		client.lock("listeners").release();
		assertThat(events.of("listeners")).containsExactly("acquired", "released");
	}

}
