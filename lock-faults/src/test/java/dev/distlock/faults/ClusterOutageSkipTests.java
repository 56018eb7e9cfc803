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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.faults.SkipCallers.Outcome;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 3 on a Redis Cluster: the health of the lock's own master decides
 * whether a wait that ends without the lock is an outage, not whether some other master
 * answered. One application, configured as a Boot user configures one
 * ({@code spring.data.redis.cluster.nodes}, {@code spring.data.redis.timeout=2s}), runs
 * six threads calling an {@code onNotAcquired = SKIP} method ({@code waitTime = "3s"}) on
 * a key of one master and six on a key of another, both held by another application;
 * meanwhile the same client locks a third key on a live master every 20 ms, so another
 * master keeps answering. The first master is killed shortly before the callers'
 * deadline: the six callers on its key must get {@link LockUnavailableException}, none
 * skipped, each within the wait time and one command timeout. Control: the six on the
 * live master's key, held there, skip.
 */
class ClusterOutageSkipTests {

	private static final long WAIT_MS = 3_000;

	private static final long BOUND_MS = WAIT_MS + 2_000 + 300;

	private static final int CALLERS = 6;

	private static final String TIMEOUT = "spring.data.redis.timeout=2s";

	private static RedisClusterDeployment cluster;

	private static ClusterApps apps;

	private static SkippingJob job;

	private static RedisLockClient client;

	private static RedisLockClient holder;

	@BeforeAll
	static void start() {
		cluster = RedisClusterDeployment.start();
		apps = new ClusterApps(cluster);
		ConfigurableApplicationContext callers = apps.start(TIMEOUT, "faults.skip.wait-time=" + WAIT_MS + "ms");
		job = callers.getBean(SkippingJob.class);
		client = ClusterApps.client(callers);
		holder = ClusterApps.client(apps.start(TIMEOUT));
	}

	@AfterAll
	static void stop() {
		apps.close();
		cluster.close();
	}

	@ParameterizedTest(name = "master killed {0} ms before the deadline")
	@ValueSource(longs = { 400, 100 })
	void callersOnAKeyOfTheKilledMasterGetUnavailableWhileAnotherMasterAnswers(long beforeDeadlineMs) {
		RedisServerProcess master = apps.masterWithReplica();
		RedisServerProcess liveMaster = anotherOriginalMaster(master);
		String deadKey = apps.keysOn(master, "skip:dead:" + beforeDeadlineMs, 1).get(0);
		List<String> liveKeys = apps.keysOn(liveMaster, "skip:live:" + beforeDeadlineMs, 2);
		String liveKey = liveKeys.get(0);
		String answeringKey = liveKeys.get(1);
		LockOptions held = new LockOptions(Duration.ZERO, Duration.ofSeconds(60));
		LockCalls.lockEventually(holder, deadKey, held);
		LockCalls.lockEventually(holder, liveKey, held);
		AtomicBoolean answering = new AtomicBoolean(true);
		AtomicLong kill = new AtomicLong(Long.MAX_VALUE);
		AtomicLong answersAfterKill = new AtomicLong();
		Thread anotherMaster = new Thread(() -> {
			while (answering.get()) {
				try {
					client.tryLock(answeringKey, new LockOptions(Duration.ZERO, Duration.ofSeconds(5)))
						.ifPresent((handle) -> {
							handle.release();
							if (System.nanoTime() - kill.get() > 0) {
								answersAfterKill.incrementAndGet();
							}
						});
				}
				catch (RuntimeException ex) {
					// Counted only when answered.
				}
				Pause.millis(20);
			}
		});
		anotherMaster.start();
		List<Outcome> dead;
		List<Outcome> live;
		try (SkipCallers onDead = new SkipCallers(job, deadKey, CALLERS);
				SkipCallers onLive = new SkipCallers(job, liveKey, CALLERS)) {
			Pause.until(onDead.firstStart() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS - beforeDeadlineMs));
			kill.set(System.nanoTime());
			cluster.kill(master);
			dead = onDead.outcomes();
			live = onLive.outcomes();
		}
		finally {
			answering.set(false);
		}
		long skipped = SkipCallers.count(dead, SkipCallers.SKIPPED);
		long unavailable = SkipCallers.count(dead, "LockUnavailableException");
		long longest = SkipCallers.longestMillis(dead);
		Figures.record("cluster SKIP, master killed " + beforeDeadlineMs + " ms before the deadline",
				"%d waiting on the killed master's key: %d skipped, %d LockUnavailableException, longest call %d ms "
						+ "(bound %d ms): %s; another master answered %d times after the kill; control, %d waiting on "
						+ "a live master's held key: %s",
				CALLERS, skipped, unavailable, longest, BOUND_MS, dead, answersAfterKill.get(), CALLERS, live);
		cluster.awaitPromotion(deadKey, Duration.ofSeconds(15));
		assertThat(answersAfterKill.get()).as("answers of another master after the kill").isPositive();
		assertThat(skipped).as("calls on the killed master's key that returned skipped").isZero();
		assertThat(unavailable).as("calls on the killed master's key that got LockUnavailableException")
			.isEqualTo(CALLERS);
		assertThat(longest).as("longest call on the killed master's key, ms").isLessThanOrEqualTo(BOUND_MS);
		assertThat(SkipCallers.count(live, SkipCallers.SKIPPED)).as("control: calls on a live master's held key")
			.isEqualTo(CALLERS);
	}

	/**
	 * An original master other than the one to kill, never killed in this class (each run
	 * kills the first original master still up), so that every client has always known it
	 * as the master of its slots.
	 */
	private static RedisServerProcess anotherOriginalMaster(RedisServerProcess killed) {
		List<RedisServerProcess> masters = cluster.nodes().subList(0, 3);
		return masters.get(masters.size() - 1).equals(killed) ? masters.get(masters.size() - 2)
				: masters.get(masters.size() - 1);
	}

}
