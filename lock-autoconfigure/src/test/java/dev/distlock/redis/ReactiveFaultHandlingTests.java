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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the reactive client does where the blocking one is hardened: a stalled Redis is in
 * doubt however many reactive grants came before, a released hold is never re-entered, a
 * grant answered after its lease may have run out is let go, a release cancelled before
 * Redis answered is retried, a handle dropped by an operator is no longer renewed, and
 * the lease-lost signal never runs on the renewal thread. Each failed on the first
 * version of the reactive client (review of issue 15).
 */
class ReactiveFaultHandlingTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private LockFixture fixture;

	private ReactiveStringRedisTemplate template;

	private ReactiveRedisLockClient reactive;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), 0);
		this.template = new ReactiveStringRedisTemplate(this.fixture.connectionFactory);
		this.reactive = new ReactiveRedisLockClient(this.fixture.client, this.template);
		// The reactive connection opens on the first reactive command: not a lock
		// command.
		this.template.hasKey("warm-up").block(Duration.ofSeconds(5));
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void aStalledRedisIsInDoubtAfterReactiveGrants() {
		for (int i = 0; i < 5; i++) {
			this.reactive.lock(TestRedis.uniqueKey("stall"), NO_WAIT)
				.flatMap(ReactiveLockHandle::release)
				.block(Duration.ofSeconds(5));
		}
		assertInDoubtWhileStalled();
	}

	@Test
	void controlAStalledRedisIsInDoubtWithoutReactiveGrants() {
		assertInDoubtWhileStalled();
	}

	private void assertInDoubtWhileStalled() {
		RedisReachability reachability = this.fixture.client.commands().reachability();
		assertThat(reachability.inDoubt()).isFalse();
		pause("1500", "ALL");
		Disposable stuck = this.reactive.tryLock(TestRedis.uniqueKey("stall"), NO_WAIT)
			.subscribe((handle) -> handle.release().subscribe(), (error) -> {
			});
		try {
			await().atMost(Duration.ofMillis(1300)).until(reachability::inDoubt);
		}
		finally {
			stuck.dispose();
		}
	}

	@Test
	void aReleasedHoldInTheContextIsNotReentered() {
		String key = TestRedis.uniqueKey("released-reentry");
		AtomicReference<ContextView> captured = new AtomicReference<>();
		this.reactive.withLock(key, NO_WAIT, Mono.deferContextual((context) -> {
			captured.set(context);
			return Mono.just(1);
		})).block(Duration.ofSeconds(5));
		// Work that outlived its withLock, still carrying its context.
		Boolean heldDuringWork = this.reactive.withLock(key, NO_WAIT, this.template.hasKey(key))
			.contextWrite(Context.of(captured.get()))
			.block(Duration.ofSeconds(5));
		assertThat(heldDuringWork).as("the work runs only while the key is held").isTrue();
	}

	@Test
	void aGrantWhoseReplyCameTooLateIsLetGo() {
		LockOptions shortLease = new LockOptions(Duration.ZERO, Duration.ofMillis(200));
		String blockingKey = TestRedis.uniqueKey("late-blocking");
		pause("400", "WRITE");
		assertThat(this.fixture.client.tryLock(blockingKey, shortLease)).isEmpty();
		assertThat(this.fixture.redis.hasKey(blockingKey)).as("control: the blocking client lets it go").isFalse();
		String reactiveKey = TestRedis.uniqueKey("late-reactive");
		pause("400", "WRITE");
		assertThat(this.reactive.tryLock(reactiveKey, shortLease).blockOptional(Duration.ofSeconds(5))).isEmpty();
		assertThat(this.fixture.redis.hasKey(reactiveKey)).as("the reactive client lets it go").isFalse();
	}

	@Test
	void aReleaseCancelledBeforeRedisAnsweredIsRetriedInTheBackground() {
		String key = TestRedis.uniqueKey("cancelled-release");
		ReactiveLockHandle handle = this.reactive.lock(key, NO_WAIT).block(Duration.ofSeconds(5));
		StepVerifier.create(handle.release(), 0).thenCancel().verify(Duration.ofSeconds(5));
		assertThat(this.fixture.client.monitor().heldLocks()).as("no longer held or renewed").isEmpty();
		await().atMost(Duration.ofSeconds(3)).until(() -> !this.fixture.redis.hasKey(key));
	}

	@Test
	void aHandleThatNeverReachedItsSubscriberIsNoLongerRenewed() {
		LockFixture shortLease = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1), 0);
		try {
			ReactiveRedisLockClient client = new ReactiveRedisLockClient(shortLease.client,
					new ReactiveStringRedisTemplate(shortLease.connectionFactory));
			String a = TestRedis.uniqueKey("zip-a");
			String b = TestRedis.uniqueKey("zip-b");
			LockOptions renewing = LockOptions.renewing(Duration.ZERO);
			LockHandle heldB = shortLease.client.lock(b, NO_WAIT);
			// zip drops the handle of a when b is not acquired.
			StepVerifier
				.create(Mono.zip(client.lock(a, renewing),
						Mono.delay(Duration.ofMillis(200)).then(client.lock(b, renewing))))
				.verifyError(LockNotAcquiredException.class);
			heldB.release();
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
				System.gc();
				return !shortLease.redis.hasKey(a);
			});
			assertThat(shortLease.client.monitor().heldLocks()).isEmpty();
		}
		finally {
			shortLease.close();
		}
	}

	@Test
	void leaseLostSignalIsNotDeliveredOnTheRenewalThread() {
		String key = TestRedis.uniqueKey("lost-thread");
		ReactiveLockHandle handle = this.reactive.lock(key, new LockOptions(Duration.ZERO, Duration.ofMillis(300)))
			.block(Duration.ofSeconds(5));
		String thread = handle.leaseLost()
			.then(Mono.fromCallable(() -> Thread.currentThread().getName()))
			.block(Duration.ofSeconds(5));
		handle.release().onErrorResume((ex) -> Mono.empty()).block(Duration.ofSeconds(5));
		assertThat(thread).doesNotStartWith("distlock-");
	}

	private void pause(String millis, String mode) {
		this.fixture.redis.execute((RedisCallback<Object>) (connection) -> connection.execute("CLIENT", bytes("PAUSE"),
				bytes(millis), bytes(mode)));
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
