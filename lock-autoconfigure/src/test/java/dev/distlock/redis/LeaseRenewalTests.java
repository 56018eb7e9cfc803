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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Auto-renewing leases: kept alive while held by one renewal thread in batches, never
 * renewed after release, and reported when lost.
 */
class LeaseRenewalTests {

	private static final Duration LEASE = Duration.ofMillis(600);

	private final RecordingLockListener listener = new RecordingLockListener();

	private LockFixture fixture;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), LEASE, this.listener);
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void leaseIsRenewedWhileHeldAndTheLockOutlivesManyLeases() {
		String key = TestRedis.uniqueKey("renewed");
		LockHandle handle = this.fixture.client.lock(key, LockOptions.renewing(Duration.ZERO));
		assertThat(handle.isAutoRenewing()).isTrue();
		assertThat(handle.leaseTime()).isEqualTo(LEASE);
		int rounds = this.listener.renewalRounds.size();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.listener.renewalRounds.size() >= rounds + 6);
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(1L, LEASE.toMillis());
		assertThat(CompletableFuture
			.supplyAsync(() -> this.fixture.client.tryLock(key, LockOptions.renewing(Duration.ZERO)))
			.join()).as("still exclusive after several leases").isEmpty();
		handle.release();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		assertThat(this.fixture.client.renewer().size()).isZero();
		assertThat(this.listener.lost).isEmpty();
	}

	@Test
	void manyLocksAreRenewedInBatchesOfAHundredPerRoundTrip() {
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < 250; i++) {
			handles.add(this.fixture.client.lock(TestRedis.uniqueKey("batch"), LockOptions.renewing(Duration.ZERO)));
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.listener.renewalRounds.stream().anyMatch((round) -> round[0] == 250));
		int[] fullRound = this.listener.renewalRounds.stream().filter((round) -> round[0] == 250).findFirst().get();
		assertThat(fullRound[1]).as("round trips for 250 locks").isEqualTo(3);
		handles.forEach(LockHandle::release);
		assertThat(this.fixture.client.renewer().size()).isZero();
	}

	@Test
	void lockTakenOverBehindTheHoldersBackIsReportedLost() {
		String key = TestRedis.uniqueKey("taken");
		LockHandle handle = this.fixture.client.lock(key, LockOptions.renewing(Duration.ZERO));
		this.fixture.redis.opsForValue().set(key, "someone-else");
		await().atMost(Duration.ofSeconds(20)).until(handle::isLeaseLost);
		// The flag flips first (so that the loss is reported once), then listeners are
		// told.
		await().atMost(Duration.ofSeconds(20)).until(() -> !this.listener.lost.isEmpty());
		assertThat(this.listener.lost).containsExactly(handle);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
		assertThat(this.fixture.redis.opsForValue().get(key)).as("other owner's key untouched")
			.isEqualTo("someone-else");
		assertThat(this.listener.lost).as("reported once").hasSize(1);
		this.fixture.redis.delete(key);
	}

	@Test
	void renewalStopsWhenTheHolderThreadDies() throws Exception {
		String key = TestRedis.uniqueKey("orphan");
		Thread holder = new Thread(() -> this.fixture.client.lock(key, LockOptions.renewing(Duration.ZERO)));
		holder.start();
		holder.join();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.fixture.client.renewer().size() == 0);
		await().atMost(Duration.ofSeconds(20)).until(() -> !this.fixture.redis.hasKey(key));
	}

	@Test
	void minimumHoldKeepsTheLockAfterReleaseUntilItEnds() {
		String key = TestRedis.uniqueKey("min-hold");
		LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(3));
		LockHandle handle = this.fixture.client.lock(key, options);
		handle.release();
		assertThat(handle.isReleased()).isTrue();
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(1L, 3000L);
		assertThat(CompletableFuture
			.supplyAsync(() -> this.fixture.client.tryLock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(1))))
			.join()).as("kept until the minimum hold ends").isEmpty();
		assertThat(this.fixture.client.tryLock(key, new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(1))))
			.as("free once it ends")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	@Test
	void minimumHoldShorterThanTheWorkDeletesOnRelease() {
		String key = TestRedis.uniqueKey("min-hold-passed");
		LockHandle handle = this.fixture.client.lock(key,
				new LockOptions(Duration.ZERO, Duration.ofSeconds(30), Duration.ofMillis(1)));
		await().until(() -> ((RedisLockHandle) handle).heldFor().toMillis() > 1);
		handle.release();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

}
