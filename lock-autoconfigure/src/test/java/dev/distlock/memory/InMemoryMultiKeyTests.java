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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.MultiLockHandle;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The default multi-key methods of {@link LockClient}, through the in-memory client: all
 * or nothing, one fixed order (no deadlock between opposite orders), one shared wait, a
 * fencing token per key.
 */
class InMemoryMultiKeyTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private final InMemoryLockClient client = InMemoryLockClient.builder().build();

	@Test
	void locksEveryKeyOnceInTextOrderWithATokenEach() {
		try (LockHandle held = this.client.lock(List.of("b", "a", "c", "a"), NO_WAIT)) {
			assertThat(held).isInstanceOf(MultiLockHandle.class);
			assertThat(held.keys()).containsExactly("a", "b", "c");
			assertThat(held.key()).isEqualTo("a");
			assertThat(held.fencingToken()).isEqualTo(held.fencingToken("a"));
			assertThat(List.of(held.fencingToken("a"), held.fencingToken("b"), held.fencingToken("c")))
				.doesNotHaveDuplicates();
			assertThatIllegalArgumentException().isThrownBy(() -> held.fencingToken("d"))
				.withMessageContaining("'d'")
				.withMessageContaining("'a', 'b', 'c'");
			assertThat(tryInOtherThread("b")).isEmpty();
		}
		assertThat(tryInOtherThread("a")).isPresent();
		assertThat(tryInOtherThread("c")).isPresent();
	}

	@Test
	void oneHeldKeyMeansNoneIsTaken() {
		try (LockHandle b = this.client.lock("b", NO_WAIT)) {
			Optional<LockHandle> both = CompletableFuture
				.supplyAsync(() -> this.client.tryLock(List.of("a", "b"), NO_WAIT))
				.join();
			assertThat(both).isEmpty();
			assertThat(tryInOtherThread("a")).as("a is released again").isPresent();
			assertThatExceptionOfType(CompletionException.class)
				.isThrownBy(() -> CompletableFuture.supplyAsync(() -> this.client.lock(List.of("a", "b"), NO_WAIT))
					.join()
					.release())
				.havingCause()
				.isInstanceOf(LockNotAcquiredException.class)
				.withMessageContaining("'b'");
		}
	}

	@Test
	void waitsForTheRestWithinTheWaitTime() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
			try (LockHandle b = this.client.lock("b", NO_WAIT)) {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		await().until(() -> tryInOtherThread("b").isEmpty());
		CompletableFuture<Optional<LockHandle>> both = CompletableFuture.supplyAsync(() -> this.client
			.tryLock(List.of("b", "a"), new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30))));
		await("a taken first, in order, while b is awaited").until(() -> tryInOtherThread("a").isEmpty());
		release.countDown();
		holder.get(10, TimeUnit.SECONDS);
		Optional<LockHandle> held = both.get(10, TimeUnit.SECONDS);
		assertThat(held).isPresent();
		assertThat(held.get().keys()).containsExactly("a", "b");
		CompletableFuture.runAsync(() -> held.get().release()).get(10, TimeUnit.SECONDS);
	}

	@Test
	void givesUpAllAtTheWaitTime() throws Exception {
		try (LockHandle b = this.client.lock("b", NO_WAIT)) {
			Optional<LockHandle> both = CompletableFuture
				.supplyAsync(() -> this.client.tryLock(List.of("a", "b"),
						new LockOptions(Duration.ofMillis(200), Duration.ofSeconds(30))))
				.get(10, TimeUnit.SECONDS);
			assertThat(both).isEmpty();
			assertThat(tryInOtherThread("a")).as("a is released again").isPresent();
		}
	}

	@Test
	void oppositeOrdersNeverDeadlock() throws Exception {
		int threads = 8;
		int iterations = 200;
		long[] balances = new long[2];
		HoldLog log = new HoldLog();
		LockOptions options = new LockOptions(Duration.ofMinutes(1), Duration.ofSeconds(30));
		ConcurrentRunner.run(threads, iterations, (thread) -> {
			List<String> keys = (thread % 2 == 0) ? List.of("x", "y") : List.of("y", "x");
			try (LockHandle held = this.client.lock(keys, options)) {
				long start = System.nanoTime();
				long from = balances[thread % 2];
				long to = balances[1 - thread % 2];
				Thread.yield();
				balances[thread % 2] = from - 1;
				balances[1 - thread % 2] = to + 1;
				log.record(start, System.nanoTime());
			}
		});
		log.assertSerial(threads * iterations);
		assertThat(balances[0] + balances[1]).isZero();
		assertThat(balances[0]).isZero();
	}

	@Test
	void refusesSharedOptionsAndNoKeys() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.client.tryLock(List.of("a", "b"), NO_WAIT.withMode(LockMode.READ)))
			.withMessageContaining("exclusive locks only");
		assertThatIllegalArgumentException().isThrownBy(() -> this.client.tryLock(List.of(), NO_WAIT));
	}

	private Optional<LockHandle> tryInOtherThread(String key) {
		return CompletableFuture.supplyAsync(() -> {
			Optional<LockHandle> held = this.client.tryLock(key, NO_WAIT);
			held.ifPresent(LockHandle::release);
			return held;
		}).join();
	}

}
