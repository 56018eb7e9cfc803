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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.faults.SkipCallers.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 3: six threads of one process call an {@code onNotAcquired = SKIP}
 * method ({@code waitTime = "3s"}, {@code spring.data.redis.timeout=2s}) on a key held by
 * another process; one of them queues in Redis for the others, which wait behind it in
 * their process. Redis is killed shortly before their deadline, when none of their lock
 * commands has failed yet. Every call must end with {@link LockUnavailableException}
 * (handled by {@code onUnavailable}), none skipped, each within the wait time and one
 * command timeout. The control shows that the same six callers do skip when the key stays
 * held and Redis is up. The blackhole variant cuts the callers off behind a proxy that
 * keeps their connections open and delivers nothing, so no event ever tells of a lost
 * connection: a wait that ends without a recent answer must ask Redis again.
 */
class OutageBeforeTheDeadlineTests {

	private static final long WAIT_MS = 3_000;

	private static final long BOUND_MS = WAIT_MS + 2_000 + 300;

	private static final int CALLERS = 6;

	private RedisNode redis;

	private LockApps apps;

	@BeforeEach
	void start() {
		this.redis = RedisNode.start(Persistence.NONE);
		this.apps = new LockApps();
	}

	@AfterEach
	void stop() {
		this.apps.close();
		this.redis.close();
	}

	@ParameterizedTest(name = "Redis killed {0} ms before the deadline")
	@ValueSource(longs = { 400, 250, 100 })
	void everyWaiterOfASkippingMethodGetsUnavailable(long beforeDeadlineMs) {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job();
		holdElsewhere(key);
		List<Outcome> outcomes;
		try (SkipCallers callers = new SkipCallers(job, key, CALLERS)) {
			Pause.until(callers.firstStart() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS - beforeDeadlineMs));
			this.redis.kill();
			outcomes = callers.outcomes();
		}
		assertEveryCallerUnavailable("SKIP, Redis killed " + beforeDeadlineMs + " ms before the deadline", outcomes);
	}

	@ParameterizedTest(name = "Redis blackholed {0} ms before the deadline")
	@ValueSource(longs = { 250, 100 })
	void everyWaiterOfASkippingMethodGetsUnavailableBehindABlackhole(long beforeDeadlineMs) {
		String key = "lock:skip:" + UUID.randomUUID();
		List<Outcome> outcomes;
		try (FaultProxy proxy = FaultProxy.start(this.redis.port())) {
			SkippingJob job = job(proxy.port());
			holdElsewhere(key);
			try (SkipCallers callers = new SkipCallers(job, key, CALLERS)) {
				Pause.until(callers.firstStart() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS - beforeDeadlineMs));
				proxy.blackhole();
				outcomes = callers.outcomes();
			}
		}
		assertEveryCallerUnavailable("SKIP, Redis blackholed " + beforeDeadlineMs + " ms before the deadline",
				outcomes);
	}

	@Test
	void controlTheSameWaitersSkipWhenTheKeyStaysHeldAndRedisIsUp() {
		String key = "lock:skip:" + UUID.randomUUID();
		SkippingJob job = job();
		holdElsewhere(key);
		List<Outcome> outcomes;
		try (SkipCallers callers = new SkipCallers(job, key, CALLERS)) {
			outcomes = callers.outcomes();
		}
		Figures.record("SKIP before the deadline, control", "key held, Redis up, waitTime 3s: %s", outcomes);
		assertThat(SkipCallers.count(outcomes, SkipCallers.SKIPPED)).isEqualTo(CALLERS);
	}

	/**
	 * Records the outcomes, then asserts that no caller was skipped, that every one got
	 * {@link LockUnavailableException}, and that none took longer than the bound.
	 */
	private static void assertEveryCallerUnavailable(String scenario, List<Outcome> outcomes) {
		long skipped = SkipCallers.count(outcomes, SkipCallers.SKIPPED);
		long unavailable = SkipCallers.count(outcomes, "LockUnavailableException");
		long longest = SkipCallers.longestMillis(outcomes);
		Figures.record(scenario,
				"%d waiting: %d skipped (null), %d LockUnavailableException, longest call %d ms (bound %d ms): %s",
				CALLERS, skipped, unavailable, longest, BOUND_MS, outcomes);
		assertThat(skipped).as("calls that returned skipped").isZero();
		assertThat(unavailable).as("calls that got LockUnavailableException").isEqualTo(CALLERS);
		assertThat(longest).as("longest call, ms").isLessThanOrEqualTo(BOUND_MS);
	}

	private SkippingJob job() {
		return job(this.redis.port());
	}

	private SkippingJob job(int port) {
		return this.apps.start(port, "spring.data.redis.timeout=2s", "faults.skip.wait-time=" + WAIT_MS + "ms")
			.getBean(SkippingJob.class);
	}

	private void holdElsewhere(String key) {
		LockClient holder = this.apps.client(this.redis.port(), "spring.data.redis.timeout=2s");
		LockHandle handle = holder.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(60)));
		assertThat(handle.isLeaseLost()).isFalse();
	}

}
