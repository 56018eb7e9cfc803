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

import dev.distlock.LockMode;

import java.util.concurrent.TimeUnit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.redis.monitor.LockHolderInfo;
import dev.distlock.redis.monitor.LockKeyState;
import dev.distlock.redis.monitor.RedisLockMonitor;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.SharedLockState;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link RedisLockMonitor}: the locks a client holds and its waiting callers, the state
 * of a key in Redis without its owner token, force release, and the script check.
 */
class RedisLockMonitorTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30), Duration.ZERO,
			"fixed");

	private LockFixture mine;

	private LockFixture theirs;

	private RecordingLockListener listener;

	@BeforeEach
	void start() {
		this.listener = new RecordingLockListener();
		this.mine = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), this.listener);
		this.theirs = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30));
	}

	@AfterEach
	void stop() {
		this.mine.close();
		this.theirs.close();
	}

	@Test
	void heldLocksDescribeEachHoldWithoutTheOwnerToken() {
		String key = TestRedis.uniqueKey("held");
		// The client's first acquisition runs the acquire script, which grants the token
		// with the lock; later ones of a free lock are a plain SET NX PX.
		this.mine.client.lock(TestRedis.uniqueKey("first"), LockOptions.renewing(Duration.ZERO)).release();
		try (LockHandle handle = this.mine.client.lock(key, LockOptions.renewing(Duration.ZERO).withName("report"));
				LockHandle reentered = this.mine.client.lock(key)) {
			assertThat(this.mine.client.monitor().heldLocks()).singleElement()
				.as("a lock acquired with SET NX PX has no fencing token until its holder asks")
				.satisfies((held) -> assertThat(held.fencingToken()).isZero());
			long fence = handle.fencingToken();
			assertThat(this.mine.client.monitor().heldLocks()).singleElement().satisfies((held) -> {
				assertThat(held.name()).isEqualTo("report");
				assertThat(held.key()).isEqualTo(key);
				assertThat(held.autoRenewing()).isTrue();
				assertThat(held.fencingToken()).isEqualTo(fence).isPositive();
				assertThat(held.reentrancyDepth()).isEqualTo(2);
				assertThat(held.thread()).isEqualTo(Thread.currentThread().getName());
				assertThat(held.heldFor()).isGreaterThanOrEqualTo(Duration.ZERO);
				assertThat(held.leaseRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
				assertThat(held.acquiredAt()).isBeforeOrEqualTo(Instant.now());
				assertThat(held.leaseLost()).isFalse();
				assertThat(held.toString()).doesNotContain(this.mine.redis.opsForValue().get(key));
			});
		}
		assertThat(this.mine.client.monitor().heldLocks()).isEmpty();
	}

	@Test
	void waitersAreListedByNameWhileTheyWait() throws Exception {
		String key = TestRedis.uniqueKey("waiters");
		RecordingWaits waits = new RecordingWaits();
		try (LockFixture waiting = LockFixture.start(RedisTestServers.shared(), Duration.ofSeconds(30), waits)) {
			HeldLock held = HeldLock.elsewhere(this.theirs.client, key);
			CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(
					() -> waiting.client.tryLock(key, LockOptions.renewing(Duration.ofSeconds(20)).withName("queue")));
			await().until(() -> !waiting.client.monitor().waiters().isEmpty());
			assertThat(waiting.client.monitor().waiters()).singleElement().satisfies((info) -> {
				assertThat(info.name()).isEqualTo("queue");
				assertThat(info.key()).isEqualTo(key);
				assertThat(info.waitingFor()).isGreaterThanOrEqualTo(Duration.ZERO);
			});
			assertThat(waits.events).containsExactly("started queue " + key);
			held.close();
			waiter.join().orElseThrow().release();
			assertThat(waiting.client.monitor().waiters()).isEmpty();
			assertThat(waits.events).containsExactly("started queue " + key, "stopped queue " + key);
		}
	}

	@Test
	void keyStateTellsWhoHoldsTheKeyWithoutRevealingTheirToken() throws Exception {
		String key = TestRedis.uniqueKey("state");
		assertThat(this.mine.client.monitor().keyState(key)).satisfies((state) -> {
			assertThat(state.held()).isFalse();
			assertThat(state.timeToLive()).isNull();
			assertThat(state.heldByThisInstance()).isFalse();
			assertThat(state.hold()).isNull();
		});
		try (HeldLock held = HeldLock.elsewhere(this.theirs.client, key)) {
			LockKeyState state = this.mine.client.monitor().keyState(key);
			assertThat(state.held()).isTrue();
			assertThat(state.timeToLive()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
			assertThat(state.heldByThisInstance()).isFalse();
			assertThat(state.hold()).isNull();
			assertThat(state.toString()).doesNotContain(this.mine.redis.opsForValue().get(key));
		}
		try (LockHandle handle = this.mine.client.lock(key, FIXED)) {
			long fence = handle.fencingToken();
			LockKeyState state = this.mine.client.monitor().keyState(key);
			assertThat(state.held()).isTrue();
			assertThat(state.heldByThisInstance()).isTrue();
			assertThat(state.hold()).isNotNull();
			assertThat(state.hold().name()).isEqualTo("fixed");
			assertThat(state.hold().fencingToken()).isEqualTo(fence);
			assertThat(this.theirs.client.monitor().keyState(key).heldByThisInstance()).isFalse();
		}
	}

	@Test
	void keyStateOfAnExclusiveLockSaysItsKindAndHasNoHolderList() throws Exception {
		String key = TestRedis.uniqueKey("exclusive-kind");
		assertThat(this.mine.client.monitor().keyState(key).kind()).isNull();
		try (HeldLock held = HeldLock.elsewhere(this.theirs.client, key)) {
			LockKeyState state = this.mine.client.monitor().keyState(key);
			assertThat(state.kind()).isEqualTo("exclusive");
			assertThat(state.holders()).isEmpty();
			assertThat(state.permits()).isNull();
			assertThat(state.waiters()).isNull();
		}
	}

	@Test
	void keyStateOfAReadWriteLockListsEveryHolderWithoutTheirTokens() {
		String key = TestRedis.uniqueKey("readers");
		SharedLockState state = new SharedLockState(this.mine.redis, key).holder("r.aa01", 30_000)
			.holder("r.bb02", 20_000)
			.holder("w.cc03", -1_000);
		try {
			LockKeyState read = this.mine.client.monitor().keyState(key);
			assertThat(read.held()).isTrue();
			assertThat(read.kind()).isEqualTo("read-write");
			assertThat(read.permits()).isNull();
			assertThat(read.waiters()).isZero();
			assertThat(read.heldByThisInstance()).isFalse();
			assertThat(read.holders()).hasSize(2).allSatisfy((holder) -> {
				assertThat(holder.kind()).isEqualTo("reader");
				assertThat(holder.leaseRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
				assertThat(holder.heldByThisInstance()).isFalse();
				assertThat(holder.hold()).isNull();
			});
			assertThat(read.toString()).doesNotContain("aa01", "bb02");
		}
		finally {
			state.delete();
		}
	}

	@Test
	void keyStateListsReadersTakenThroughTwoClientsAndWhichAreThisClients() throws Exception {
		String key = TestRedis.uniqueKey("catalogue");
		LockOptions read = FIXED.withMode(LockMode.READ);
		LockHandle mineHere = this.mine.client.lock(key, read);
		LockHandle mineThere = CompletableFuture.supplyAsync(() -> this.mine.client.lock(key, read))
			.get(10, TimeUnit.SECONDS);
		LockHandle theirsHere = this.theirs.client.lock(key, read);
		try {
			LockKeyState state = this.mine.client.monitor().keyState(key);
			assertThat(state.kind()).isEqualTo("read-write");
			assertThat(state.heldByThisInstance()).isTrue();
			assertThat(state.holders()).hasSize(3)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo("reader"));
			assertThat(state.holders()).filteredOn(LockHolderInfo::heldByThisInstance)
				.hasSize(2)
				.allSatisfy((holder) -> assertThat(holder.hold()).isNotNull());
			assertThat(this.theirs.client.monitor().keyState(key).holders())
				.filteredOn(LockHolderInfo::heldByThisInstance)
				.hasSize(1);
		}
		finally {
			mineHere.release();
			mineThere.release();
			theirsHere.release();
		}
		assertThat(this.mine.client.monitor().keyState(key).held()).isFalse();
	}

	@Test
	void keyStateOfASemaphoreTakenThroughTheClientShowsItsPermitsAndHolders() {
		String key = TestRedis.uniqueKey("partner-api");
		LockOptions permit = FIXED.withPermits(5);
		try (LockHandle mineHere = this.mine.client.lock(key, permit);
				LockHandle theirsHere = this.theirs.client.lock(key, permit)) {
			LockKeyState state = this.theirs.client.monitor().keyState(key);
			assertThat(state.kind()).isEqualTo("semaphore");
			assertThat(state.permits()).isEqualTo(5);
			assertThat(state.holders()).hasSize(2)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo("permit"))
				.filteredOn(LockHolderInfo::heldByThisInstance)
				.singleElement()
				.satisfies((holder) -> assertThat(holder.hold().fencingToken()).isEqualTo(theirsHere.fencingToken()));
		}
	}

	@Test
	void keyStateOfASemaphoreShowsItsPermitsHoldersAndWaiters() {
		String key = TestRedis.uniqueKey("semaphore");
		String waiters = LockFixture.KEYSPACE.waitersKey(key);
		SharedLockState state = new SharedLockState(this.mine.redis, key).holder("s5.aa01", 30_000)
			.holder("s5.bb02", 30_000)
			.waiter(waiters, "s5.cc03", 5_000);
		try {
			LockKeyState semaphore = this.mine.client.monitor().keyState(key);
			assertThat(semaphore.kind()).isEqualTo("semaphore");
			assertThat(semaphore.permits()).isEqualTo(5);
			assertThat(semaphore.waiters()).isOne();
			assertThat(semaphore.holders()).hasSize(2)
				.allSatisfy((holder) -> assertThat(holder.kind()).isEqualTo("permit"));
		}
		finally {
			state.delete(waiters);
		}
	}

	@Test
	void keyWithoutExpiryIsReportedHeldWithoutTimeToLive() {
		String key = TestRedis.uniqueKey("forever");
		this.mine.redis.opsForValue().set(key, "set by someone else");
		try {
			LockKeyState state = this.mine.client.monitor().keyState(key);
			assertThat(state.held()).isTrue();
			assertThat(state.timeToLive()).isNull();
			assertThat(state.heldByThisInstance()).isFalse();
		}
		finally {
			this.mine.redis.delete(key);
		}
	}

	@Test
	void forceReleaseDeletesTheKeyAndTheHolderLearnsItLostTheLease() throws Exception {
		String key = TestRedis.uniqueKey("force");
		HeldLock held = HeldLock.elsewhere(this.mine.client, key);
		long heldFence = held.handle().fencingToken();
		assertThat(this.mine.client.monitor().forceRelease(key)).isTrue();
		assertThat(this.mine.redis.hasKey(key)).isFalse();
		assertThat(held.handle().isLeaseLost()).isTrue();
		assertThat(this.listener.lost).containsExactly(held.handle());
		assertThat(this.mine.client.monitor().heldLocks()).isEmpty();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(held::close)
			.withCauseInstanceOf(LockLeaseLostException.class);
		try (LockHandle next = this.theirs.client.lock(key, FIXED)) {
			assertThat(next.fencingToken()).isGreaterThan(heldFence);
		}
	}

	@Test
	void forceReleaseLeavesKeysOfOtherClientsAlone() throws Exception {
		String key = TestRedis.uniqueKey("theirs");
		try (HeldLock held = HeldLock.elsewhere(this.theirs.client, key)) {
			String token = this.mine.redis.opsForValue().get(key);
			assertThat(this.mine.client.monitor().forceRelease(key)).isFalse();
			assertThat(this.mine.redis.opsForValue().get(key)).isEqualTo(token);
			assertThat(held.handle().isLeaseLost()).isFalse();
		}
	}

	@Test
	void checkScriptsLoadsScriptsThatRedisLost() {
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(30))) {
			try (LockHandle handle = fixture.client.lock(TestRedis.uniqueKey("scripts"), FIXED)) {
				assertThat(fixture.client.monitor().checkScripts()).as("release has not run yet")
					.containsEntry("release", false);
			}
			fixture.redis.execute((RedisCallback<String>) (connection) -> {
				connection.scriptingCommands().scriptFlush();
				return null;
			});
			Map<String, Boolean> reloaded = fixture.client.monitor().checkScripts();
			assertThat(reloaded)
				.containsOnlyKeys("acquire", "release", "delete-if-equal", "renew", "fence", "inspect",
						"shared-acquire", "shared-release", "multi-acquire")
				.doesNotContainValue(true);
			assertThat(fixture.client.monitor().checkScripts()).doesNotContainValue(false);
		}
	}

	static final class RecordingWaits implements LockListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void startedWaiting(String key, LockOptions options) {
			this.events.add("started " + options.name() + " " + key);
		}

		@Override
		public void stoppedWaiting(String key, LockOptions options) {
			this.events.add("stopped " + options.name() + " " + key);
		}

	}

}
