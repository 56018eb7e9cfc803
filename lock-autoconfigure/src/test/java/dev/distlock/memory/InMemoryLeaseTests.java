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

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leases of the in-memory client, computed when asked: an auto-renewing lease outlasts
 * its lease time for as long as its holder thread lives, and is taken back once that
 * thread ended without releasing it.
 */
class InMemoryLeaseTests {

	private final InMemoryLockClient client = InMemoryLockClient.builder().renewalLease(Duration.ofMillis(50)).build();

	@Test
	void leaseTooLongToCountInNanosecondsNeverRunsOut() {
		InMemoryLockClient client = new InMemoryLockClient();
		LockHandle held = client.lock("forever", new LockOptions(Duration.ZERO, Duration.ofMillis(Long.MAX_VALUE)));
		Optional<LockHandle> other = CompletableFuture
			.supplyAsync(() -> client.tryLock("forever", new LockOptions(Duration.ofMillis(50), Duration.ofSeconds(1))),
					(task) -> new Thread(task).start())
			.join();
		assertThat(other).as("excluded by the holder").isEmpty();
		assertThat(held.isLeaseLost()).isFalse();
		held.release();
		Optional<LockHandle> next = CompletableFuture
			.supplyAsync(() -> client.tryLock("forever", new LockOptions(Duration.ZERO, Duration.ofSeconds(1))),
					(task) -> new Thread(task).start())
			.join();
		assertThat(next).as("free after the release").isPresent();
		next.get().release();
	}

	@Test
	void autoRenewingLeaseLastsWhileItsHolderThreadLives() {
		String key = "renewing";
		LockHandle handle = this.client.lock(key, LockOptions.renewing(Duration.ZERO));
		assertThat(handle.isAutoRenewing()).isTrue();
		assertThat(handle.leaseTime()).isEqualTo(Duration.ofMillis(50));
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.until(() -> !handle.isLeaseLost() && tryLockInOtherThread(key).isEmpty());
		handle.release();
		assertThat(handle.isLeaseLost()).isFalse();
	}

	@Test
	void lockOfAHolderThreadThatEndedIsTakenBack() throws InterruptedException {
		String key = "abandoned";
		LockHandle[] abandoned = new LockHandle[1];
		Thread holder = new Thread(() -> abandoned[0] = this.client.lock(key, LockOptions.renewing(Duration.ZERO)));
		holder.start();
		holder.join(10_000);
		Optional<LockHandle> next = this.client.tryLock(key, LockOptions.renewing(Duration.ofSeconds(5)));
		assertThat(next).isPresent();
		assertThat(next.get().fencingToken()).isGreaterThan(abandoned[0].fencingToken());
		assertThat(abandoned[0].isLeaseLost()).isTrue();
		next.get().release();
	}

	@Test
	void fixedLeaseRunsOutWhileItsHolderStillLives() {
		String key = "fixed";
		LockHandle handle = this.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(100)));
		assertThat(handle.isAutoRenewing()).isFalse();
		Optional<LockHandle> next = tryLockInOtherThread(key, Duration.ofSeconds(10));
		assertThat(next).as("free once the lease ran out").isPresent();
		assertThat(handle.isLeaseLost()).isTrue();
		next.get().release();
	}

	private Optional<LockHandle> tryLockInOtherThread(String key) {
		return tryLockInOtherThread(key, Duration.ZERO);
	}

	private Optional<LockHandle> tryLockInOtherThread(String key, Duration waitTime) {
		return CompletableFuture
			.supplyAsync(() -> this.client.tryLock(key, new LockOptions(waitTime, Duration.ofSeconds(30))))
			.join();
	}

}
