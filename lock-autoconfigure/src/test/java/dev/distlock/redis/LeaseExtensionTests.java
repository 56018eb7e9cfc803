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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.test.StepVerifier;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.lease.Lease;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockHandle#extend(Duration)} and its reactive twin set a fixed lease to the
 * given time from now in Redis, with the owner-checked renewal script, and move the
 * holder's deadline only on Redis's confirmation, counted from the send time of the
 * extension minus the drift margin (a reply held up by Redis does not lengthen it). A
 * released handle, an auto-renewing lease and a lease lost before the extension are
 * refused, each with its own exception; a key that no longer holds the token is not
 * written. The reader and writer sides of a read-write lock and a permit of a semaphore
 * extend their own hold.
 */
class LeaseExtensionTests {

	@RegisterExtension
	static final OwnRedisServer REDIS = new OwnRedisServer();

	private static final LockOptions FIXED_2S = new LockOptions(Duration.ZERO, Duration.ofSeconds(2));

	private final RecordingLockListener listener = new RecordingLockListener();

	private LockFixture fixture;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(REDIS.server(), Duration.ofSeconds(30), this.listener);
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void extensionSetsTheKeysLeaseAndCountsTheDeadlineFromItsSendTime() {
		String key = TestRedis.uniqueKey("extend");
		RedisLockHandle handle = (RedisLockHandle) this.fixture.client.lock(key, FIXED_2S);
		// Redis holds the extension for 500ms: its reply comes half a second after it was
		// sent, which must not lengthen the holder's count.
		OwnRedisServer.pauseClients(this.fixture.redis, 500, "WRITE");
		long before = System.nanoTime();
		handle.extend(Duration.ofSeconds(10));
		long after = System.nanoTime();
		assertThat(Duration.ofNanos(after - before)).as("the reply was held up").isGreaterThan(Duration.ofMillis(400));
		Long pttl = this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS);
		assertThat(pttl).as("PTTL after the extension").isBetween(9_000L, 10_000L);
		long fromSend = Lease.validUntil(before, Duration.ofSeconds(10));
		assertThat(handle.validUntilNanos()).as("deadline from the send time, minus the drift margin")
			.isBetween(fromSend, fromSend + TimeUnit.MILLISECONDS.toNanos(100));
		assertThat(handle.validUntilNanos()).as("not from the receipt")
			.isLessThan(Lease.validUntil(after, Duration.ofSeconds(10)) - TimeUnit.MILLISECONDS.toNanos(300));
		assertThat(handle.leaseTime()).as("the lease of the acquisition").isEqualTo(Duration.ofSeconds(2));
		assertThat(otherThreadTryLock(key, Duration.ofMillis(2_500))).as("held past the first lease").isFalse();
		assertThat(handle.isLeaseLost()).isFalse();
		handle.release();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void shorterExtensionShortensTheLeaseInRedisAndByTheLocalCount() {
		String key = TestRedis.uniqueKey("shorten");
		LockHandle handle = this.fixture.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		handle.extend(Duration.ofMillis(300));
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(1L, 300L);
		await().atMost(Duration.ofSeconds(2)).until(handle::isLeaseLost);
		await().atMost(Duration.ofSeconds(2)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(this.listener.lost).extracting(LockHandle::key).containsExactly(key);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
	}

	@Test
	void extensionOfAReleasedHandleIsRefused() {
		String key = TestRedis.uniqueKey("released");
		LockHandle handle = this.fixture.client.lock(key, FIXED_2S);
		handle.release();
		assertThatIllegalStateException().isThrownBy(() -> handle.extend(Duration.ofSeconds(5)))
			.withMessageContaining(key)
			.withMessageContaining("already released");
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void extensionOfAnAutoRenewingLeaseIsRefused() {
		String key = TestRedis.uniqueKey("renewing");
		try (LockHandle handle = this.fixture.client.lock(key, LockOptions.renewing(Duration.ZERO))) {
			assertThatIllegalStateException().isThrownBy(() -> handle.extend(Duration.ofSeconds(5)))
				.withMessageContaining(key)
				.withMessageContaining("auto-renewing");
		}
	}

	@Test
	void extensionShorterThanAMillisecondIsRefused() {
		try (LockHandle handle = this.fixture.client.lock(TestRedis.uniqueKey("tiny"), FIXED_2S)) {
			assertThatIllegalArgumentException().isThrownBy(() -> handle.extend(Duration.ofNanos(999_999)))
				.withMessageContaining("at least 1ms");
		}
	}

	@Test
	void extensionOfAKeyHeldByAnotherOwnerFailsAndWritesNothing() {
		String key = TestRedis.uniqueKey("taken");
		LockHandle handle = this.fixture.client.lock(key, FIXED_2S);
		// As if the lease had expired in Redis and another client had taken the lock.
		this.fixture.redis.opsForValue().set(key, "another-owner", Duration.ofSeconds(1));
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> handle.extend(Duration.ofSeconds(30)))
			.withMessageContaining("Could not extend lock '" + key + "'")
			.withMessageContaining("no longer held");
		assertThat(this.fixture.redis.opsForValue().get(key)).isEqualTo("another-owner");
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("the other owner's lease")
			.isLessThanOrEqualTo(1_000L);
		assertThat(handle.isLeaseLost()).isTrue();
		assertThat(this.listener.lost).extracting(LockHandle::key).containsExactly(key);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
	}

	@Test
	void extensionOfALeaseThatRanOutIsRefusedWithoutSendingIt() {
		String key = TestRedis.uniqueKey("ran-out");
		LockHandle handle = this.fixture.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(200)));
		await().atMost(Duration.ofSeconds(2)).until(handle::isLeaseLost);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(() -> handle.extend(Duration.ofSeconds(30)))
			.withMessageContaining("Could not extend lock '" + key + "'");
		Long pttl = this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS);
		assertThat(pttl).as("not extended in Redis").isLessThanOrEqualTo(200L);
	}

	@Test
	void extensionThatRedisDoesNotAnswerIsUnavailableAndLeavesTheDeadline() {
		String key = TestRedis.uniqueKey("unavailable");
		RedisLockHandle handle = (RedisLockHandle) this.fixture.client.lock(key,
				new LockOptions(Duration.ZERO, Duration.ofSeconds(20)));
		long deadline = handle.validUntilNanos();
		REDIS.server().stop();
		try {
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> handle.extend(Duration.ofSeconds(60)))
				.withMessageContaining("Could not extend lock '" + key + "'")
				.satisfies((ex) -> assertThat(ex.getOperation()).isEqualTo(LockUnavailableException.EXTEND));
			assertThat(handle.validUntilNanos()).as("deadline after the unanswered extension").isEqualTo(deadline);
			assertThat(handle.isLeaseLost()).isFalse();
		}
		finally {
			REDIS.ensureRunning();
		}
	}

	@Test
	void extensionThatRedisRefusesIsAMisconfigurationAndLeavesTheDeadline() {
		String key = TestRedis.uniqueKey("refused");
		RedisLockHandle handle = (RedisLockHandle) this.fixture.client.lock(key, FIXED_2S);
		long deadline = handle.validUntilNanos();
		acl("ACL", "SETUSER", "default", "-evalsha", "-eval");
		try {
			assertThatExceptionOfType(LockMisconfigurationException.class)
				.isThrownBy(() -> handle.extend(Duration.ofSeconds(10)))
				.withMessageStartingWith("Could not extend lock '" + key + "': Redis refused the command (NOPERM");
			assertThat(handle.validUntilNanos()).isEqualTo(deadline);
		}
		finally {
			acl("ACL", "SETUSER", "default", "+@all");
		}
		handle.release();
	}

	private void acl(String... command) {
		this.fixture.redis.execute((RedisCallback<Object>) (connection) -> connection.execute(command[0],
				Arrays.stream(command).skip(1).map(String::getBytes).toArray(byte[][]::new)));
	}

	@Test
	void readerWriterAndPermitExtendTheirOwnHold() {
		for (LockOptions options : List.of(FIXED_2S.withMode(LockMode.READ), FIXED_2S.withMode(LockMode.WRITE),
				FIXED_2S.withPermits(2))) {
			String key = TestRedis.uniqueKey("shared-" + options.mode() + "-" + options.permits());
			LockHandle handle = this.fixture.client.lock(key, options);
			LockHandle second = (options.permits() == 2) ? CompletableFuture
				.supplyAsync(() -> this.fixture.client.lock(key, options), (task) -> new Thread(task, "second").start())
				.join() : null;
			handle.extend(Duration.ofSeconds(10));
			assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).as("PTTL of %s", options)
				.isGreaterThan(9_000L);
			if (second != null) {
				// The other permit keeps its 2s lease: a third caller gets it once it
				// ends.
				assertThat(otherThreadTryLock(key, options.withWaitTime(Duration.ofSeconds(5)))).as("other permit")
					.isTrue();
			}
			else {
				LockOptions writer = FIXED_2S.withMode(LockMode.WRITE).withWaitTime(Duration.ofMillis(2_500));
				assertThat(otherThreadTryLock(key, writer)).as("writer behind the extended %s", options).isFalse();
			}
			assertThat(handle.isLeaseLost()).isFalse();
			handle.release();
		}
	}

	@Test
	void reactiveExtensionFollowsTheSameRules() {
		ReactiveRedisLockClient reactive = new ReactiveRedisLockClient(this.fixture.client,
				new ReactiveStringRedisTemplate(this.fixture.connectionFactory));
		String key = TestRedis.uniqueKey("reactive-extend");
		ReactiveLockHandle handle = reactive.lock(key, FIXED_2S).block(Duration.ofSeconds(5));
		assertThat(handle).isNotNull();
		StepVerifier.create(handle.extend(Duration.ofSeconds(10))).verifyComplete();
		assertThat(this.fixture.redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(9_000L, 10_000L);
		assertThat(otherThreadTryLock(key, Duration.ofMillis(2_500))).as("held past the first lease").isFalse();
		this.fixture.redis.opsForValue().set(key, "another-owner", Duration.ofSeconds(1));
		StepVerifier.create(handle.extend(Duration.ofSeconds(30)))
			.verifyErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockLeaseLostException.class)
				.hasMessageContaining("Could not extend lock '" + key + "'"));
		StepVerifier.create(handle.leaseLost()).expectComplete().verify(Duration.ofSeconds(5));
		assertThat(this.fixture.redis.opsForValue().get(key)).isEqualTo("another-owner");
		StepVerifier.create(handle.release()).verifyError(LockLeaseLostException.class);
		StepVerifier.create(handle.extend(Duration.ofSeconds(5))).verifyError(IllegalStateException.class);
		ReactiveLockHandle renewing = reactive
			.lock(TestRedis.uniqueKey("reactive-renewing"), LockOptions.renewing(Duration.ZERO))
			.block(Duration.ofSeconds(5));
		assertThat(renewing).isNotNull();
		StepVerifier.create(renewing.extend(Duration.ofSeconds(5)))
			.verifyErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("auto-renewing"));
		StepVerifier.create(renewing.release()).verifyComplete();
	}

	private boolean otherThreadTryLock(String key, Duration waitTime) {
		return otherThreadTryLock(key, new LockOptions(waitTime, Duration.ofSeconds(30)));
	}

	private boolean otherThreadTryLock(String key, LockOptions options) {
		return CompletableFuture.supplyAsync(() -> this.fixture.client.tryLock(key, options).map((handle) -> {
			handle.release();
			return true;
		}).orElse(false), (task) -> new Thread(task, "other-holder").start()).join();
	}

}
