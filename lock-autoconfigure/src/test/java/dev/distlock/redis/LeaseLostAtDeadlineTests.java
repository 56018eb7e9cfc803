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
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A hold whose local deadline passes while its method still runs is reported to the
 * listeners when the deadline passes, once, and before its release: a fixed lease that
 * the method outlives, and a renewed lease whose renewals get no reply (Redis stopped).
 * Control: before the deadline was watched, the fixed lease was reported only at release,
 * and the renewed one at the first renewal round after the deadline, up to a renewal
 * period late (694 ms in one run; 1 to 8 ms with the deadline watched).
 */
class LeaseLostAtDeadlineTests {

	/** How late after the deadline the report may come: timer and thread jitter. */
	private static final Duration LATE = Duration.ofMillis(300);

	@Test
	void fixedLeaseOutlivedByItsMethodIsReportedAtItsDeadline() {
		fixedLeaseOf1500msIsReportedAtItsDeadline(Duration.ofSeconds(30), "fixed");
	}

	@Test
	void deadlineLeftToTheSweepIsReportedAtItsDeadline() {
		// A renewal lease of 300 ms: every 100 ms, the sweep queues the deadlines that
		// have come within 200 ms; this fixed lease's is left to it at first.
		fixedLeaseOf1500msIsReportedAtItsDeadline(Duration.ofMillis(300), "swept");
	}

	private void fixedLeaseOf1500msIsReportedAtItsDeadline(Duration renewalLease, String keyName) {
		TimedLossListener listener = new TimedLossListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, renewalLease, listener)) {
			LockHandle handle = fixture.client.lock(TestRedis.uniqueKey(keyName),
					new LockOptions(Duration.ZERO, Duration.ofMillis(1500)));
			long deadline = ((RedisLockHandle) handle).validUntilNanos();
			await().atMost(Duration.ofSeconds(5)).until(() -> !listener.lost.isEmpty());
			assertToldOnceAtTheDeadline(listener, handle, deadline);
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
			assertThat(listener.lost).as("told once, not again at release").containsExactly(handle);
		}
	}

	@Test
	void renewedLeaseWithoutRepliesIsReportedAtItsDeadline() {
		TimedLossListener listener = new TimedLossListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(3), listener)) {
			// Redis answers the acquire 600 ms after it was sent, so the deadline (from
			// the send) falls between two renewal rounds (from the registration).
			RedisAdminCommands.call(server, "CLIENT", "PAUSE", "600");
			LockHandle handle = fixture.client.lock(TestRedis.uniqueKey("renewed"),
					LockOptions.renewing(Duration.ZERO));
			server.stop();
			long deadline = ((RedisLockHandle) handle).validUntilNanos();
			await().atMost(Duration.ofSeconds(10)).until(() -> !listener.lost.isEmpty());
			assertThat(((RedisLockHandle) handle).validUntilNanos()).as("no renewal was confirmed").isEqualTo(deadline);
			assertToldOnceAtTheDeadline(listener, handle, deadline);
			server.start();
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
			assertThat(listener.lost).as("told once, not again at release").containsExactly(handle);
			assertThat(fixture.client.renewer().renewalsOfReleasedLocks()).isZero();
		}
	}

	@Test
	void releasedHoldsAreNoLongerWatched() {
		TimedLossListener listener = new TimedLossListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(3), listener)) {
			LockHandle fixed = fixture.client.lock(TestRedis.uniqueKey("fixed"),
					new LockOptions(Duration.ZERO, Duration.ofSeconds(2)));
			LockHandle renewed = fixture.client.lock(TestRedis.uniqueKey("renewed"),
					LockOptions.renewing(Duration.ZERO));
			assertThat(fixture.client.renewer().watchedDeadlines()).isEqualTo(2);
			fixed.release();
			renewed.release();
			// Nothing left that could report them after their release.
			assertThat(fixture.client.renewer().watchedDeadlines()).isZero();
			assertThat(listener.lost).isEmpty();
		}
	}

	@Test
	void releasedHoldsAreNotReportedWhenTheirDeadlinePassesBeforeTheirTasksAreCancelled() {
		TimedLossListener listener = new TimedLossListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(30), listener)) {
			// Fewer releases than a batch, and no renewal round: the deadline tasks are
			// still queued, dropped, when their deadlines come.
			for (int i = 0; i < 3; i++) {
				fixture.client
					.lock(TestRedis.uniqueKey("fixed"), new LockOptions(Duration.ZERO, Duration.ofMillis(300)))
					.release();
			}
			assertThat(fixture.client.renewer().watchedDeadlines()).isZero();
			await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(listener.lost::isEmpty);
		}
	}

	private static void assertToldOnceAtTheDeadline(TimedLossListener listener, LockHandle handle, long deadline) {
		assertThat(listener.lost).containsExactly(handle);
		assertThat(listener.releasedBeforeLoss).as("released before the report").isZero();
		long late = listener.lostAt.get(0) - deadline;
		assertThat(late).as("told %d ms after the deadline", late / 1_000_000)
			.isNotNegative()
			.isLessThan(LATE.toNanos());
		assertThat(handle.isLeaseLost()).isTrue();
		assertThat(handle.isReleased()).isFalse();
	}

	/** Records each lost lease, when it was told, and releases told before it. */
	static final class TimedLossListener implements LockListener {

		final List<LockHandle> lost = new CopyOnWriteArrayList<>();

		final List<Long> lostAt = new CopyOnWriteArrayList<>();

		volatile int releasedBeforeLoss;

		@Override
		public void leaseLost(LockHandle handle) {
			this.lostAt.add(System.nanoTime());
			this.lost.add(handle);
		}

		@Override
		public void released(LockHandle handle, Duration held) {
			if (this.lost.isEmpty()) {
				this.releasedBeforeLoss++;
			}
		}

	}

}
