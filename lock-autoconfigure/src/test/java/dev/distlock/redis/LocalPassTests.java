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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.wait.WaitTimings;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.RedisCommandCounts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A lock passes between threads of one client without Redis, in arrival order, with
 * increasing fencing tokens; after the reserved block of tokens it goes back through
 * Redis, where the waiters of other clients come first; fixed leases always go through
 * Redis; a holder thread that dies does not keep the threads waiting behind it, nor does
 * a hold whose lease ran out keep out the threads that wait or do not wait; a pass after
 * Redis last confirmed the owner token longer ago than the window confirms it first, and
 * a key found gone then does not pass.
 */
class LocalPassTests {

	private static final LockOptions RENEWING = LockOptions.renewing(Duration.ofSeconds(20));

	private static final CountDownLatch OPEN = new CountDownLatch(0);

	private static final long WINDOW_NANOS = LocalCohort.CONFIRMATION_WINDOW.toNanos();

	private final List<LockFixture> fixtures = new ArrayList<>();

	@AfterEach
	void stop() {
		this.fixtures.forEach(LockFixture::close);
	}

	@Test
	void lockPassesToTheNextThreadsOfTheClientWithoutARoundTrip() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("passed");
		LockHandle first = fixture.client.lock(key, RENEWING);
		long firstFence = first.fencingToken();
		List<String> order = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Long>> waiters = new ArrayList<>();
		for (int i = 1; i <= 3; i++) {
			waiters.add(holdInTurn(fixture, key, "thread-" + i, order, OPEN));
			awaitLocalWaiters(fixture, i);
		}
		long scripts = scriptCalls(fixture);
		first.release();
		List<Long> fences = waiters.stream().map(CompletableFuture::join).toList();
		assertThat(order).containsExactly("thread-1", "thread-2", "thread-3");
		assertThat(fences).isSortedAccordingTo(Long::compare)
			.doesNotHaveDuplicates()
			.allMatch((fence) -> fence > firstFence);
		// Nobody waited when the first holder acquired, so it reserved one fencing token:
		// its
		// release and thread-1's acquire go through Redis, thread-1 reserves a block as
		// the others
		// wait, and only thread-3's release goes to Redis again.
		assertThat(scriptCalls(fixture) - scripts).isEqualTo(3);
		assertThat(fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void uncontendedAcquisitionsTakeOneFencingTokenEach() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("one-token");
		long first = tokenOfOneHold(fixture, key);
		assertThat(fenceCounter(fixture)).as("a block of one token reserved").isEqualTo(first);
		long second = tokenOfOneHold(fixture, key);
		assertThat(fenceCounter(fixture)).as("a block of one token reserved").isEqualTo(second);
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void afterItsBlockOfTokensTheLockGoesThroughRedisWhereOtherClientsWaitFirst() throws Exception {
		LockFixture local = fixture(Duration.ofSeconds(30), 2);
		LockFixture other = fixture(Duration.ofSeconds(30), 2);
		String key = TestRedis.uniqueKey("block");
		LockHandle first = local.client.lock(key, RENEWING);
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch gate = new CountDownLatch(1);
		List<CompletableFuture<Long>> waiters = new ArrayList<>();
		waiters.add(holdInTurn(local, key, "local-1", order, gate));
		awaitLocalWaiters(local, 1);
		waiters.add(holdInTurn(local, key, "local-2", order, OPEN));
		awaitLocalWaiters(local, 2);
		first.release();
		await().until(() -> order.contains("local-1"));
		waiters.add(holdInTurn(other, key, "other", order, OPEN));
		await().until(() -> other.waiter.waiting() == 1);
		waiters.add(holdInTurn(local, key, "local-3", order, OPEN));
		awaitLocalWaiters(local, 2);
		waiters.add(holdInTurn(local, key, "local-4", order, OPEN));
		awaitLocalWaiters(local, 3);
		gate.countDown();
		waiters.forEach(CompletableFuture::join);
		assertThat(order)
			.as("local-1 acquired in Redis with a block of three tokens, passed it twice, then the "
					+ "other client's turn")
			.containsExactly("local-1", "local-2", "local-3", "other", "local-4");
		assertThat(local.redis.hasKey(key)).isFalse();
	}

	@Test
	void fixedLeaseAlwaysGoesThroughRedis() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("fixed");
		LockHandle first = fixture.client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		long firstFence = first.fencingToken();
		List<String> order = new CopyOnWriteArrayList<>();
		CompletableFuture<Long> second = holdInTurn(fixture, key, "second", order, OPEN);
		awaitLocalWaiters(fixture, 1);
		long scripts = scriptCalls(fixture);
		first.release();
		assertThat(second.join()).isGreaterThan(firstFence);
		assertThat(scriptCalls(fixture) - scripts).as("release, the waiter's acquire, its release").isEqualTo(3);
	}

	@Test
	void zeroWaitWhileAnotherThreadOfTheClientHoldsFailsWithoutARoundTrip() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("busy");
		try (LockHandle held = fixture.client.lock(key, RENEWING)) {
			long scripts = scriptCalls(fixture);
			Optional<LockHandle> attempt = CompletableFuture
				.supplyAsync(() -> fixture.client.tryLock(key, Duration.ZERO, Duration.ofSeconds(30)))
				.join();
			assertThat(attempt).isEmpty();
			assertThat(scriptCalls(fixture)).isEqualTo(scripts);
		}
	}

	@Test
	void waiterThatGivesUpLeavesTheLockToBeReleasedInRedis() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("gives-up");
		LockHandle held = fixture.client.lock(key, RENEWING);
		LockOptions shortWait = LockOptions.renewing(Duration.ofMillis(200));
		assertThat(CompletableFuture.supplyAsync(() -> fixture.client.tryLock(key, shortWait)).join()).isEmpty();
		held.release();
		assertThat(fixture.redis.hasKey(key)).as("deleted, not passed to the waiter that left").isFalse();
	}

	@Test
	void holderThreadThatDiesDoesNotKeepTheWaitersBehindIt() throws Exception {
		LockFixture fixture = fixture(Duration.ofMillis(600), 7);
		String key = TestRedis.uniqueKey("died");
		Thread holder = new Thread(() -> fixture.client.lock(key, RENEWING));
		holder.start();
		holder.join();
		LockHandle next = CompletableFuture.supplyAsync(() -> fixture.client.lock(key, RENEWING)).join();
		assertThat(next.isLeaseLost()).isFalse();
		next.release();
		assertThat(fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void holdWhoseLeaseRanOutKeepsNoZeroWaitCallerOfTheClientOut() throws Exception {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("lapsed");
		CountDownLatch end = new CountDownLatch(1);
		Thread stuck = holdWithoutRelease(fixture, key, new LockOptions(Duration.ZERO, Duration.ofMillis(50)), end);
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> !fixture.redis.hasKey(key));
			Optional<LockHandle> attempt = CompletableFuture
				.supplyAsync(() -> fixture.client.tryLock(key, LockOptions.renewing(Duration.ZERO)))
				.join();
			assertThat(attempt).isPresent();
			attempt.get().release();
		}
		finally {
			end.countDown();
			stuck.join();
		}
	}

	@Test
	void threadWaitingBehindAHoldIsWokenWhenItsLeaseRunsOut() throws Exception {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("lapsing");
		CountDownLatch end = new CountDownLatch(1);
		Duration lease = Duration.ofMillis(300);
		long start = System.nanoTime();
		Thread stuck = holdWithoutRelease(fixture, key, new LockOptions(Duration.ZERO, lease), end);
		try {
			LockHandle next = CompletableFuture
				.supplyAsync(() -> fixture.client.lock(key, LockOptions.renewing(Duration.ofSeconds(5))))
				.join();
			Duration waited = Duration.ofNanos(System.nanoTime() - start);
			next.release();
			assertThat(waited).as("woken when the lease ran out, not by the %s backstop", WaitTimings.MAX_SILENT_WAIT)
				.isLessThan(lease.plusMillis(300));
		}
		finally {
			end.countDown();
			stuck.join();
		}
	}

	@Test
	void passAfterTheConfirmationWindowHasRedisConfirmTheTokenFirst() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("confirm-first");
		LockHandle first = fixture.client.lock(key, RENEWING);
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch gate = new CountDownLatch(1);
		CompletableFuture<Long> holder = holdInTurn(fixture, key, "holder", order, gate);
		awaitLocalWaiters(fixture, 1);
		CompletableFuture<Long> next = holdInTurn(fixture, key, "next", order, OPEN);
		awaitLocalWaiters(fixture, 2);
		first.release();
		await().until(() -> order.contains("holder"));
		long heldSince = System.nanoTime();
		await().pollInterval(Duration.ofMillis(10)).until(() -> System.nanoTime() - heldSince > 2 * WINDOW_NANOS);
		long scripts = scriptCalls(fixture);
		gate.countDown();
		long holderToken = holder.join();
		assertThat(next.join()).as("the next token of the holder's block: passed without Redis")
			.isEqualTo(holderToken + 1);
		assertThat(order).containsExactly("holder", "next");
		assertThat(scriptCalls(fixture) - scripts).as("the confirmation, and next's release").isEqualTo(2);
	}

	@Test
	void keyFoundGoneWhenConfirmingDoesNotPassAndTheHolderIsTold() {
		LockFixture fixture = fixture(Duration.ofSeconds(30), 7);
		String key = TestRedis.uniqueKey("gone");
		LockHandle first = fixture.client.lock(key, RENEWING);
		List<String> order = new CopyOnWriteArrayList<>();
		Map<String, Long> tokens = new ConcurrentHashMap<>();
		CountDownLatch gate = new CountDownLatch(1);
		CompletableFuture<Long> holder = holdInTurn(fixture, key, "holder", order, tokens, gate);
		awaitLocalWaiters(fixture, 1);
		CompletableFuture<Long> next = holdInTurn(fixture, key, "next", order, OPEN);
		awaitLocalWaiters(fixture, 2);
		first.release();
		await().until(() -> order.contains("holder"));
		long heldSince = System.nanoTime();
		fixture.redis.delete(key);
		await().pollInterval(Duration.ofMillis(10)).until(() -> System.nanoTime() - heldSince > 2 * WINDOW_NANOS);
		gate.countDown();
		assertThatThrownBy(holder::join).hasCauseInstanceOf(LockLeaseLostException.class);
		assertThat(next.join()).as("a token granted in Redis, beyond the lost block of eight")
			.isGreaterThan(tokens.get("holder") + 7);
	}

	@Test
	void keyFoundGoneByTheConfirmationOfAPassBeforeTheNextThreadTookTheLockTellsTheClient() throws Exception {
		// The pass asks Redis to confirm the owner token in the background; its answer,
		// that the key is gone, comes while the thread passed the lock has not taken it
		// yet (here held up in its listener, as on a loaded machine), so that no hold of
		// the client that is still going has the token. The client must be told all the
		// same: the holder that passed the lock on worked without it.
		for (int attempt = 1;; attempt++) {
			PassRace race = lockPassedWhileTheKeyIsGone(attempt, false);
			if (race.passed || attempt == 5) {
				assertThat(race.passed)
					.as("the lock passed with a confirmation in the background, in one of %d runs", attempt)
					.isTrue();
				assertThat(race.lostKeys).as("keys whose lease the client was told it lost").contains(race.key);
				assertThat(race.nextToken).as("the next thread's token: granted in Redis, beyond the lost block")
					.isGreaterThan(race.holderToken + RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES);
				return;
			}
		}
	}

	@Test
	void keyGoneWhenTheNextThreadTakesTheLockAfterTheWindowIsFoundAndTheClientTold() throws Exception {
		// The pass needs no confirmation (Redis confirmed the token less than half the
		// window ago), but the thread passed the lock is woken only after the window
		// (held up in its listener, as on a loaded machine). It must not start its hold
		// on the token unconfirmed, and a key found gone must be told to the client.
		for (int attempt = 1;; attempt++) {
			PassRace race = lockPassedWhileTheKeyIsGone(attempt, true);
			if (race.passed || attempt == 5) {
				assertThat(race.passed).as("the lock passed without a confirmation, in one of %d runs", attempt)
					.isTrue();
				assertThat(race.lostKeys).as("keys whose lease the client was told it lost").contains(race.key);
				assertThat(race.nextToken).as("the next thread's hold: found lost before it began (-1)").isEqualTo(-1);
				return;
			}
		}
	}

	/**
	 * Holds a key with a block of fencing tokens, deletes it, and passes it on. Not late:
	 * between half the confirmation window and the window after its grant, so that the
	 * pass asks for a confirmation in the background, and the thread passed the lock is
	 * held up until that confirmation is answered. Late: at once, without a confirmation,
	 * and the thread passed the lock is held up until twice the window after the pass.
	 */
	private PassRace lockPassedWhileTheKeyIsGone(int attempt, boolean late) throws Exception {
		String key = TestRedis.uniqueKey("gone-while-passing-" + attempt);
		CountDownLatch answered = new CountDownLatch(1);
		AtomicBoolean armed = new AtomicBoolean();
		List<String> lostKeys = new CopyOnWriteArrayList<>();
		LockListener listener = new LockListener() {

			@Override
			public void startedWaiting(String waitedKey, LockOptions options) {
				if (Thread.currentThread().getName().equals("next")) {
					awaitQuietly(answered);
				}
			}

			@Override
			public void renewed(int renewed, int roundTrips) {
				if (!late && armed.get() && roundTrips == 1) {
					answered.countDown();
				}
			}

			@Override
			public void leaseLost(LockHandle handle) {
				lostKeys.add(handle.key());
			}

		};
		LockFixture fixture = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), listener);
		this.fixtures.add(fixture);
		LockHandle first = fixture.client.lock(key, RENEWING);
		List<String> order = new CopyOnWriteArrayList<>();
		CountDownLatch gate = new CountDownLatch(1);
		CompletableFuture<Long> holder = holdInTurn(fixture, key, "holder", order, gate);
		awaitLocalWaiters(fixture, 1);
		CompletableFuture<Long> next = holdInTurn(fixture, key, "next", order, OPEN);
		awaitLocalWaiters(fixture, 2);
		first.release();
		await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(() -> order.contains("holder"));
		long heldSince = System.nanoTime();
		fixture.redis.delete(key);
		if (!late) {
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(5))
				.until(() -> System.nanoTime() - heldSince > WINDOW_NANOS * 6 / 10);
		}
		armed.set(true);
		gate.countDown();
		if (late) {
			long passed = System.nanoTime();
			await().pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(5))
				.until(() -> System.nanoTime() - passed > 2 * WINDOW_NANOS);
			answered.countDown();
		}
		long holderToken;
		try {
			holderToken = holder.join();
		}
		catch (CompletionException ex) {
			// Passed too late: the token was confirmed on the holder's thread first.
			assertThat(ex).hasCauseInstanceOf(LockLeaseLostException.class);
			answered.countDown();
			next.join();
			return new PassRace(key, false, List.copyOf(lostKeys), 0, 0);
		}
		long nextToken;
		try {
			nextToken = next.join();
		}
		catch (CompletionException ex) {
			// Its hold was found lost before it began: its release says so.
			assertThat(ex).hasCauseInstanceOf(LockLeaseLostException.class);
			nextToken = -1;
		}
		return new PassRace(key, true, List.copyOf(lostKeys), holderToken, nextToken);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the confirmation of the pass was never answered");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * One run of {@link #lockPassedWhileTheConfirmationFindsTheKeyGone}.
	 *
	 * @param key the key
	 * @param passed whether the holder passed the lock on, asking for a confirmation in
	 * the background
	 * @param lostKeys the keys of the leases the client was told it lost
	 * @param holderToken the fencing token of the holder that passed the lock on
	 * @param nextToken the fencing token of the thread it passed it to, -1 if its hold
	 * was found lost
	 */
	private record PassRace(String key, boolean passed, List<String> lostKeys, long holderToken, long nextToken) {
	}

	/**
	 * Takes the lock on a thread that stays alive without releasing it until the latch
	 * opens (a stuck job).
	 */
	private static Thread holdWithoutRelease(LockFixture fixture, String key, LockOptions options, CountDownLatch end)
			throws InterruptedException {
		CountDownLatch acquired = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			LockHandle handle = fixture.client.lock(key, options);
			acquired.countDown();
			try {
				end.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			try {
				handle.release();
			}
			catch (LockLeaseLostException ex) {
				// Its lease ran out long ago.
			}
		}, "stuck");
		thread.start();
		assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
		return thread;
	}

	private LockFixture fixture(Duration renewalLease, int maxLocalPasses) {
		LockFixture fixture = LockFixture.start(RedisTestServers.shared(), renewalLease, maxLocalPasses);
		this.fixtures.add(fixture);
		return fixture;
	}

	/**
	 * Acquires the key on a new thread, notes the order, holds it until the gate opens.
	 */
	private static CompletableFuture<Long> holdInTurn(LockFixture fixture, String key, String name, List<String> order,
			CountDownLatch gate) {
		return holdInTurn(fixture, key, name, order, new ConcurrentHashMap<>(), gate);
	}

	/**
	 * Acquires the key on a new thread, notes the order and the fencing token, holds it
	 * until the gate opens.
	 */
	private static CompletableFuture<Long> holdInTurn(LockFixture fixture, String key, String name, List<String> order,
			Map<String, Long> tokens, CountDownLatch gate) {
		return CompletableFuture.supplyAsync(() -> {
			try (LockHandle handle = fixture.client.lock(key, RENEWING)) {
				tokens.put(name, handle.fencingToken());
				order.add(name);
				if (!gate.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("gate never opened");
				}
				return handle.fencingToken();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}, (task) -> new Thread(task, name).start());
	}

	private static long fenceCounter(LockFixture fixture) {
		return Long.parseLong(fixture.redis.opsForValue().get(LockFixture.KEYSPACE.fenceKey("any")));
	}

	private static long tokenOfOneHold(LockFixture fixture, String key) {
		try (LockHandle handle = fixture.client.lock(key, RENEWING)) {
			return handle.fencingToken();
		}
	}

	private static void awaitLocalWaiters(LockFixture fixture, int count) {
		await().until(() -> fixture.client.monitor().waiters().size() == count);
	}

	private static long scriptCalls(LockFixture fixture) {
		return RedisCommandCounts.calls(fixture.redis, "evalsha") + RedisCommandCounts.calls(fixture.redis, "eval");
	}

}
