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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reactive client on a real Redis, beside a blocking client of the same application:
 * both exclude each other, a release hands the lock to a reactive waiter by message,
 * nested {@code withLock} calls re-enter through the Reactor context, cancelling a wait
 * leaves the lock's queue, cancelling the work releases, and a lease lost while the work
 * runs ends it with a {@link LockLeaseLostException}.
 */
class ReactiveRedisLockClientTests {

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static final LockOptions WAIT_LONG = new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30));

	private LockFixture fixture;

	private ReactiveRedisLockClient reactive;

	private ReactiveStringRedisTemplate template;

	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), 0);
		this.template = new ReactiveStringRedisTemplate(this.fixture.connectionFactory);
		this.reactive = new ReactiveRedisLockClient(this.fixture.client, this.template);
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void reactiveAndBlockingHoldsExcludeEachOther() {
		String key = TestRedis.uniqueKey("reactive-exclusion");
		ReactiveLockHandle handle = this.reactive.lock(key, NO_WAIT).block(Duration.ofSeconds(5));
		assertThat(handle).isNotNull();
		assertThat(handle.fencingToken()).isPositive();
		assertThat(this.fixture.client.tryLock(key, NO_WAIT)).isEmpty();
		StepVerifier.create(this.reactive.tryLock(key, NO_WAIT)).verifyComplete();
		StepVerifier.create(this.reactive.lock(key, NO_WAIT)).verifyError(LockNotAcquiredException.class);
		StepVerifier.create(handle.release()).verifyComplete();
		Optional<LockHandle> blocking = this.fixture.client.tryLock(key, NO_WAIT);
		assertThat(blocking).isPresent();
		assertThat(blocking.get().fencingToken()).isGreaterThan(handle.fencingToken());
		blocking.get().release();
	}

	@Test
	void releaseHandsTheLockToAReactiveWaiterByMessage() {
		String key = TestRedis.uniqueKey("reactive-hand-over");
		LockHandle held = this.fixture.client.lock(key, NO_WAIT);
		long heldToken = held.fencingToken();
		long handOversBefore = this.fixture.waiter.handOvers();
		Mono<Long> waiting = this.reactive.withLock(key, WAIT_LONG, ReactiveLockContext.fencingToken()).cache();
		Disposable subscribed = waiting.subscribe();
		await().until(() -> this.fixture.waiter.waiting() == 1);
		held.release();
		assertThat(waiting.block(Duration.ofSeconds(10))).isGreaterThan(heldToken);
		assertThat(this.fixture.waiter.handOvers()).isEqualTo(handOversBefore + 1);
		subscribed.dispose();
	}

	@Test
	void holdHandedOverAndReleasedAtOnceIsNotReportedLost() {
		// A hand-over is confirmed in the background; a confirmation that finds the key
		// already released must not count as a lost lease.
		for (int i = 0; i < 30; i++) {
			String key = TestRedis.uniqueKey("reactive-hand-over-release");
			LockHandle held = this.fixture.client.lock(key, NO_WAIT);
			Mono<Long> waiting = this.reactive.withLock(key, WAIT_LONG, ReactiveLockContext.fencingToken()).cache();
			Disposable subscribed = waiting.subscribe((token) -> {
			}, (error) -> {
			});
			await().until(() -> this.fixture.waiter.waiting() == 1);
			held.release();
			StepVerifier.create(waiting).expectNextCount(1).verifyComplete();
			subscribed.dispose();
		}
	}

	@Test
	void nestedWithLockOfTheSameKeyReentersInTheSameChain() {
		String key = TestRedis.uniqueKey("reactive-reentry");
		Mono<List<Long>> tokens = this.reactive.withLock(key, NO_WAIT,
				ReactiveLockContext.fencingToken()
					.flatMap((outer) -> this.reactive.withLock(key, NO_WAIT, ReactiveLockContext.fencingToken())
						.map((inner) -> List.of(outer, inner))));
		List<Long> both = tokens.block(Duration.ofSeconds(5));
		assertThat(both).hasSize(2);
		assertThat(both.get(1)).as("the inner hold is the outer one").isEqualTo(both.get(0));
		assertThat(this.fixture.client.tryLock(key, NO_WAIT)).as("released after the outer work")
			.isPresent()
			.get()
			.satisfies(LockHandle::release);
	}

	@Test
	void cancellingAWaitLeavesNoPlaceInTheQueue() {
		String key = TestRedis.uniqueKey("reactive-cancel-wait");
		LockHandle held = this.fixture.client.lock(key, NO_WAIT);
		Disposable waiting = this.reactive.lock(key, WAIT_LONG).subscribe();
		String queue = LockFixture.KEYSPACE.queueKey(key);
		await().until(() -> this.fixture.redis.opsForList().size(queue) == 1);
		waiting.dispose();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.fixture.redis.opsForList().size(queue) == 0);
		assertThat(this.fixture.waiter.waiting()).isZero();
		held.release();
		assertThat(this.fixture.redis.hasKey(key)).as("nobody was handed the lock").isFalse();
	}

	@Test
	void cancellingTheWorkReleasesTheLock() {
		String key = TestRedis.uniqueKey("reactive-cancel-hold");
		AtomicInteger started = new AtomicInteger();
		Disposable work = this.reactive
			.withLock(key, NO_WAIT, Mono.fromRunnable(started::incrementAndGet).then(Mono.never()))
			.subscribe();
		await().until(() -> started.get() == 1);
		assertThat(this.fixture.redis.hasKey(key)).isTrue();
		work.dispose();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		assertThat(this.fixture.client.monitor().heldLocks()).isEmpty();
	}

	@Test
	void fluxHoldsTheLockUntilItCompletes() {
		String key = TestRedis.uniqueKey("reactive-flux");
		List<Boolean> heldDuring = this.reactive
			.withLock(key, NO_WAIT, Flux.range(0, 3).concatMap((i) -> this.template.hasKey(key)))
			.collectList()
			.block(Duration.ofSeconds(5));
		assertThat(heldDuring).containsExactly(true, true, true);
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void leaseLostWhileTheWorkRunsEndsItWithLeaseLost() {
		String key = TestRedis.uniqueKey("reactive-lease-lost");
		LockOptions shortFixedLease = new LockOptions(Duration.ZERO, Duration.ofMillis(300));
		StepVerifier.create(this.reactive.withLock(key, shortFixedLease, Mono.never()))
			.expectError(LockLeaseLostException.class)
			.verify(Duration.ofSeconds(5));
		StepVerifier.create(this.reactive.withLock(key + ":flux", shortFixedLease, Flux.never()))
			.expectError(LockLeaseLostException.class)
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aRenewalAnsweredAfterTheReleaseDoesNotMarkTheLeaseLost() {
		String key = TestRedis.uniqueKey("reactive-late-renewal");
		ReactiveLockHandle handle = this.reactive.lock(key, NO_WAIT).block(Duration.ofSeconds(5));
		assertThat(handle).isNotNull();
		HeldLocks held = this.fixture.client.held();
		RedisLockHandle hold = held.held(handle.key()).get(0);
		StepVerifier.create(handle.release()).verifyComplete();
		// As the renewal sender reports a renewal or hand-over confirmation that Redis
		// refused because the work had already released the key: the hold has ended, so
		// it is not news of a lost lease (the benchmark's contended hand-overs raced so).
		// Its release ended the client's tenure, so the lock was not passing either.
		held.tokenLost(hold, "its key was gone or held by another owner when renewing", false);
		assertThat(handle.isLeaseLost()).isFalse();
		StepVerifier.create(handle.leaseLost())
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(50))
			.thenCancel()
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void renewedHoldOutlivesItsLease() {
		String key = TestRedis.uniqueKey("reactive-renewed");
		LockOptions renewing = LockOptions.renewing(Duration.ZERO);
		Mono<Boolean> work = Mono.delay(Duration.ofMillis(1500)).then(this.template.hasKey(key));
		// The fixture's renewal lease is 30 s; a client with a 1 s lease renews every
		// third of it.
		LockFixture shortLease = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(1), 0);
		try {
			ReactiveRedisLockClient client = new ReactiveRedisLockClient(shortLease.client,
					new ReactiveStringRedisTemplate(shortLease.connectionFactory));
			assertThat(client.withLock(key, renewing, work).block(Duration.ofSeconds(5))).isTrue();
		}
		finally {
			shortLease.close();
		}
	}

}
