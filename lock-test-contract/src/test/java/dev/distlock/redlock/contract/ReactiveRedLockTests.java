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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redlock.ReactiveRedLockClient;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.redlock.RedLockHoldInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the reactive RedLock client adds to the reactive contract, on 3 real
 * {@code redis-server} processes: a cancelled acquisition leaves no hold behind, even
 * when the grant comes as the cancellation does; without a majority an acquisition errors
 * with {@link LockUnavailableException} (fail closed) and a hold's work ends with
 * {@link LockLeaseLostException}; reactive and blocking grants share one sequence of
 * fencing tokens, the one in the Reactor context, and reactive holds are listed with the
 * client's.
 */
class ReactiveRedLockTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, LEASE);

	private RedLockNodes nodes;

	private RedLockClient client;

	private ReactiveRedLockClient reactive;

	private final Queue<String> events = new ConcurrentLinkedQueue<>();

	@BeforeEach
	void start() {
		this.nodes = new RedLockNodes(3);
		this.client = RedLockClient.builder(this.nodes.urls())
			// The nodes are fresh, and what a restart may cost is not what this class
			// checks:
			// nodes count at once, as with every write persisted.
			.appendfsyncAlways(true)
			.nodeTimeout(NODE_TIMEOUT)
			.renewalLease(Duration.ofSeconds(1))
			.listener(new LockListener() {

				@Override
				public void acquired(LockHandle handle, Duration waited) {
					ReactiveRedLockTests.this.events.add("acquired");
				}

				@Override
				public void released(LockHandle handle, Duration held) {
					ReactiveRedLockTests.this.events.add("released");
				}

			})
			.build();
		this.client.checkNodes(Duration.ofSeconds(5));
		this.reactive = new ReactiveRedLockClient(this.client);
		// Loads the scripts on every node, and warms the connections up.
		for (int i = 0; i < 20; i++) {
			this.reactive.withLock("reactive:warm-up", NO_WAIT, Mono.just(i)).block(Duration.ofSeconds(10));
		}
		this.events.clear();
	}

	@AfterEach
	void stop() {
		this.reactive.close();
		this.client.close();
		this.nodes.close();
	}

	@Test
	void cancelledAcquisitionsLeaveNoHoldBehind() {
		String key = "reactive:cancel:" + UUID.randomUUID();
		int subscriptions = 300;
		Queue<ReactiveLockHandle> delivered = new ConcurrentLinkedQueue<>();
		AtomicInteger deliveredCount = new AtomicInteger();
		for (int i = 0; i < subscriptions; i++) {
			Disposable subscription = this.reactive.tryLock(key, NO_WAIT).subscribe(delivered::add);
			// Cancels before the attempt, during one of its phases, or as it is granted.
			LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(0, Duration.ofMillis(3).toNanos()));
			subscription.dispose();
			deliveredCount.addAndGet(releaseAll(delivered));
		}
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			deliveredCount.addAndGet(releaseAll(delivered));
			assertThat(this.client.heldLocks()).as("holds left").isEmpty();
		});
		long acquired = this.events.stream().filter("acquired"::equals).count();
		long released = this.events.stream().filter("released"::equals).count();
		assertThat(released)
			.as("releases of the %d grants (%d delivered before the cancellation)", acquired, deliveredCount.get())
			.isEqualTo(acquired);
		Optional<LockHandle> free = this.client.tryLock(key, NO_WAIT);
		assertThat(free).as("the key is free on a majority after %d cancellations", subscriptions).isPresent();
		free.get().release();
	}

	@Test
	void aGrantThatCrossesTheCancellationIsReleased() {
		String key = "reactive:crossing:" + UUID.randomUUID();
		LockHandle holder = this.client.lock(key, NO_WAIT);
		CountDownLatch granted = new CountDownLatch(1);
		AtomicBoolean grantedWhileCancelling = new AtomicBoolean();
		Queue<ReactiveLockHandle> delivered = new ConcurrentLinkedQueue<>();
		// The subscriber is disposed first, and its cancellation reaches the acquisition
		// only once the grant has come and been dropped, as when the disposing thread is
		// descheduled between the two: the lock is free only after the subscriber gave up
		// on it.
		Disposable subscription = this.reactive.tryLock(key, new LockOptions(Duration.ofSeconds(10), LEASE))
			.doOnNext((handle) -> granted.countDown())
			.doOnCancel(() -> {
				holder.release();
				grantedWhileCancelling.set(awaitUninterruptibly(granted, Duration.ofSeconds(10)));
			})
			.subscribe(delivered::add);
		subscription.dispose();
		assertThat(grantedWhileCancelling).as("granted while the cancellation was on its way").isTrue();
		assertThat(delivered).as("delivered to the disposed subscriber").isEmpty();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.client.heldLocks()).as("holds left").isEmpty());
		Optional<LockHandle> free = this.client.tryLock(key, NO_WAIT);
		assertThat(free).as("the key is free on a majority").isPresent();
		free.get().release();
	}

	@Test
	void aGrantTakenByAnOperatorThatCancelsTheAcquisitionAsItTakesItStaysHeld() {
		String key = "reactive:next:" + UUID.randomUUID();
		// next() cancels its source as it takes the grant, on the thread that hands it
		// over: the grant is the subscriber's.
		ReactiveLockHandle handle = this.reactive.tryLock(key, NO_WAIT).flux().next().block(Duration.ofSeconds(10));
		assertThat(handle).isNotNull();
		assertThat(handle.isReleased()).isFalse();
		assertThat(this.client.heldLocks()).extracting(RedLockHoldInfo::key).containsExactly(key);
		assertThat(this.client.tryLock(key, NO_WAIT)).as("taken by another caller").isEmpty();
		handle.release().block(Duration.ofSeconds(10));
		assertThat(this.client.heldLocks()).isEmpty();
	}

	@Test
	void cancellingWorkThatGotTheGrantReleasesIt() {
		String key = "reactive:flat-map:" + UUID.randomUUID();
		AtomicInteger ran = new AtomicInteger();
		// flatMap stays subscribed to the acquisition, and cancels it with the work.
		Disposable subscription = this.reactive.tryLock(key, NO_WAIT)
			.flatMap((handle) -> Mono.fromRunnable(ran::incrementAndGet).then(Mono.never()))
			.subscribe();
		await().atMost(Duration.ofSeconds(5)).until(() -> ran.get() == 1);
		assertThat(this.client.heldLocks()).extracting(RedLockHoldInfo::key).containsExactly(key);
		subscription.dispose();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.client.heldLocks()).as("holds left").isEmpty());
		Optional<LockHandle> free = this.client.tryLock(key, NO_WAIT);
		assertThat(free).as("the key is free on a majority").isPresent();
		free.get().release();
	}

	private static boolean awaitUninterruptibly(CountDownLatch latch, Duration timeout) {
		try {
			return latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Releases the handles delivered to subscribers, which then own them. */
	private static int releaseAll(Queue<ReactiveLockHandle> delivered) {
		int released = 0;
		for (ReactiveLockHandle handle = delivered.poll(); handle != null; handle = delivered.poll()) {
			handle.release().onErrorResume((ex) -> Mono.empty()).block(Duration.ofSeconds(5));
			released++;
		}
		return released;
	}

	@Test
	void cancellingTheWorkReleasesTheHoldOnEveryNode() {
		String key = "reactive:cancel-granted:" + UUID.randomUUID();
		AtomicInteger ran = new AtomicInteger();
		Disposable subscription = this.reactive
			.withLock(key, NO_WAIT, Mono.fromRunnable(ran::incrementAndGet).then(Mono.never()))
			.subscribe();
		await().atMost(Duration.ofSeconds(5)).until(() -> ran.get() == 1);
		subscription.dispose();
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(this.client.heldLocks()).isEmpty();
			Optional<LockHandle> free = this.client.tryLock(key, NO_WAIT);
			assertThat(free).isPresent();
			free.get().release();
		});
	}

	/**
	 * An extension to a shorter lease moves the validity earlier, and the work's
	 * {@code leaseLost()} signal comes at its end, not at the end of the lease it was
	 * granted (30 s): the timer that watches the validity follows it.
	 */
	@Test
	void aShorterExtensionSignalsTheLeaseLostAtItsOwnEnd() {
		String key = "reactive:shorter-extension:" + UUID.randomUUID();
		ReactiveLockHandle handle = this.reactive.lock(key, NO_WAIT).block(Duration.ofSeconds(5));
		assertThat(handle).isNotNull();
		long sent = System.nanoTime();
		handle.extend(Duration.ofMillis(500)).block(Duration.ofSeconds(5));
		StepVerifier.create(handle.leaseLost()).expectComplete().verify(Duration.ofSeconds(5));
		assertThat(Duration.ofNanos(System.nanoTime() - sent)).as("signalled at the extension's end")
			.isLessThan(Duration.ofSeconds(2));
		StepVerifier.create(handle.release()).expectError(LockLeaseLostException.class).verify(Duration.ofSeconds(5));
	}

	@Test
	void withoutAMajorityAcquisitionsFailClosedAndHoldsReportTheLeaseLost() {
		String held = "reactive:majority-held:" + UUID.randomUUID();
		String key = "reactive:majority:" + UUID.randomUUID();
		AtomicBoolean workRan = new AtomicBoolean();
		Mono<Object> holding = this.reactive.withLock(held, LockOptions.renewing(Duration.ZERO), Mono.never());
		Disposable running = holding.subscribe((value) -> {
		}, (ex) -> this.events.add("work ended: " + ex.getClass().getSimpleName()));
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(
					() -> assertThat(this.client.heldLocks()).extracting(RedLockHoldInfo::key).containsExactly(held));
		this.nodes.server(1).crash();
		this.nodes.server(2).crash();
		long start = System.nanoTime();
		StepVerifier
			.create(this.reactive.withLock(key, new LockOptions(Duration.ofSeconds(10), Duration.ofSeconds(10)),
					Mono.fromRunnable(() -> workRan.set(true))))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockUnavailableException.class)
				.hasMessageContaining("distlock.redlock.nodes"))
			.verify(Duration.ofSeconds(5));
		long failedAfterMs = (System.nanoTime() - start) / 1_000_000;
		assertThat(workRan).as("work run without a majority").isFalse();
		assertThat(failedAfterMs).as("ms until LockUnavailableException, with a 10 s wait").isLessThan(1000);
		// The hold taken before the loss cannot be renewed on a majority: its work ends
		// with a lost lease once its validity (1 s lease) ran out.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.events.contains("work ended: LockLeaseLostException"));
		running.dispose();
		this.nodes.restart(this.nodes.server(1), this.nodes.server(2));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.client.pingNodes(Duration.ofMillis(200))).doesNotContainValue(false));
		StepVerifier.create(this.reactive.withLock(key, NO_WAIT, ReactiveLockContext.fencingToken()))
			.expectNextMatches((token) -> token > 0)
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

	@Test
	void reactiveAndBlockingGrantsShareOneTokenSequenceAndReactiveHoldsAreListed() {
		String key = "reactive:tokens:" + UUID.randomUUID();
		LockClient blocking = this.client;
		LockHandle first = blocking.lock(key, NO_WAIT);
		long before = first.fencingToken();
		first.release();
		List<Object> seen = this.reactive
			.withLock(key, NO_WAIT,
					ReactiveLockContext.fencingToken().map((token) -> List.<Object>of(token, this.client.heldLocks())))
			.block(Duration.ofSeconds(10));
		long token = (Long) seen.get(0);
		assertThat(token).as("the reactive grant's token, read from the Reactor context").isGreaterThan(before);
		@SuppressWarnings("unchecked")
		List<RedLockHoldInfo> listed = (List<RedLockHoldInfo>) seen.get(1);
		assertThat(listed).singleElement().satisfies((info) -> {
			assertThat(info.key()).isEqualTo(key);
			assertThat(info.fencingToken()).isEqualTo(token);
			assertThat(info.grantedBy()).hasSizeGreaterThanOrEqualTo(2);
			assertThat(info.validityRemaining()).isPositive();
			assertThat(info.leaseLost()).isFalse();
		});
		assertThat(this.client.heldLocks()).as("listed until released").isEmpty();
		LockHandle after = blocking.lock(key, NO_WAIT);
		assertThat(after.fencingToken()).isGreaterThan(token);
		after.release();
	}

}
