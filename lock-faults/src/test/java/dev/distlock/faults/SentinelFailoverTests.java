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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisSentinelDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14, item 4 with Redis Sentinel: the master is killed ({@code SIGKILL}) while
 * applications configured as a Spring Boot user configures them
 * ({@code spring.data.redis.sentinel.*}) hold two keys (one renewed, one with a fixed 30
 * s lease, both released 300 ms into the outage) and contend for them and for more. Three
 * failovers in a row (the killed node comes back as a replica of the new master).
 * <p>
 * Clients A and B set {@code spring.data.redis.timeout=1s}, the configuration
 * {@code docs/faults.md} asks for: their calls during the outage fail with
 * {@code LockUnavailableException} within the wait time and one timeout, and their health
 * is {@code DOWN} during the outage. Client D keeps Lettuce's defaults (60 s command
 * timeout, commands queued while disconnected): its calls and health checks wait for the
 * new master instead, which the figures show. Every key, of every client, must be granted
 * again within 5 s of the promotion, and no body may run on a hold that is not valid.
 */
class SentinelFailoverTests {

	private static final int RUNS = 3;

	private static final long RECOVERY_BOUND_MS = 5000;

	/** Wait time + one command timeout + slack for a 2-core machine. */
	private static final long CALL_BOUND_MS = FailoverCallers.WAIT_TIME.toMillis() + 1000 + 500;

	private static RedisSentinelDeployment sentinel;

	private static LockApps apps;

	private static LockClient clientA;

	private static LockClient clientB;

	private static LockClient clientD;

	private static DistributedLockHealthIndicator healthA;

	private static DistributedLockHealthIndicator healthD;

	@BeforeAll
	static void start() {
		sentinel = RedisSentinelDeployment.start();
		apps = new LockApps();
		ConfigurableApplicationContext contextA = apps.startOnSentinel(sentinel.masterName(), sentinel.sentinelNodes(),
				"spring.data.redis.timeout=1s");
		clientA = contextA.getBean(LockClient.class);
		healthA = health(contextA);
		clientB = apps.startOnSentinel(sentinel.masterName(), sentinel.sentinelNodes(), "spring.data.redis.timeout=1s")
			.getBean(LockClient.class);
		ConfigurableApplicationContext contextD = apps.startOnSentinel(sentinel.masterName(), sentinel.sentinelNodes());
		clientD = contextD.getBean(LockClient.class);
		healthD = health(contextD);
	}

	@AfterAll
	static void stop() {
		apps.close();
		sentinel.close();
	}

	@Test
	void locksRecoverWithinFiveSecondsOfPromotionAndHealthFollows() {
		List<FailoverRun> runs = new ArrayList<>();
		for (int run = 1; run <= RUNS; run++) {
			runs.add(failover(run));
		}
		Map<String, List<Long>> recoveries = new TreeMap<>();
		runs.forEach((run) -> run.recoveryMillis()
			.forEach((key, millis) -> recoveries
				.computeIfAbsent(key.substring(key.lastIndexOf(':') + 1), (name) -> new ArrayList<>())
				.add(millis)));
		recoveries.forEach((key, millis) -> Figures.record("sentinel failover recovery",
				"%s: first grant after promotion min/median/max %s ms over %d runs", key, FailoverRun.spread(millis),
				millis.size()));
		for (FailoverRun run : runs) {
			Figures.record("sentinel failover run", "%s", run.describe());
			Figures.record("sentinel failover run", "%s", run.describe(false));
			Figures.record("sentinel failover run", "%s", run.describe(true));
		}
		for (FailoverRun run : runs) {
			assertThat(run.bodiesWithoutValidHold()).as("bodies that ran without a valid hold").isZero();
			assertThat(run.hung()).as("calls still running 5 s after the callers were stopped").isEmpty();
			assertThat(run.recoveryMillis()).as("every key granted again").hasSize(4);
			assertThat(run.recoveryMillis().values()).as("ms from promotion to the first grant")
				.allMatch((millis) -> millis <= RECOVERY_BOUND_MS);
			// A grant made just before the kill that the promoted replica never received
			// is
			// reported lost at its release (item 4), so a LockLeaseLostException is a
			// correct
			// outcome too.
			assertThat(run.outageOutcomes(false)).as("outcomes of calls during the outage, %s", run.describe(false))
				.contains("LockUnavailableException")
				.isSubsetOf(FailoverCall.GRANTED, "LockUnavailableException", "LockNotAcquiredException",
						"LockLeaseLostException");
			assertThat(run.longestOutageCallMillis(false)).as("longest call during the outage, ms")
				.isLessThanOrEqualTo(CALL_BOUND_MS);
			assertThat(run.healthDownMillis(false)).as("ms from the kill to health DOWN")
				.isBetween(0L, run.outageMillis());
			assertThat(run.healthUpMillis(false)).as("ms from the promotion to health UP")
				.isBetween(0L, RECOVERY_BOUND_MS);
			assertThat(run.outageOutcomes(true)).as("outcomes of the defaults client's calls during the outage")
				.isSubsetOf(FailoverCall.GRANTED, "LockUnavailableException", "LockNotAcquiredException",
						"LockLeaseLostException");
			assertThat(run.healthUpMillis(true)).as("ms from the promotion to health UP, defaults client")
				.isBetween(0L, RECOVERY_BOUND_MS);
		}
	}

	private static FailoverRun failover(int run) {
		String prefix = "lock:failover:" + run + ":";
		FailoverCallers callers = new FailoverCallers();
		CountDownLatch release = new CountDownLatch(1);
		callers.hold("A-holder", clientA, prefix + "held-renewed", null, release);
		callers.hold("A-holder-fixed", clientA, prefix + "held-fixed-30s", Duration.ofSeconds(30), release);
		callers.contend("B", clientB, prefix + "held-renewed");
		callers.contend("B", clientB, prefix + "held-fixed-30s");
		callers.contend("A", clientA, prefix + "contended");
		callers.contend("B", clientB, prefix + "contended");
		callers.hold("D-holder", clientD, prefix + "boot-defaults", null, release);
		callers.contend("D", clientD, prefix + "boot-defaults");
		try (HealthWatch health = new HealthWatch(healthA); HealthWatch defaultsHealth = new HealthWatch(healthD)) {
			Pause.millis(1000);
			RedisServerProcess master = sentinel.awaitSettled(Duration.ofSeconds(20));
			long kill = System.nanoTime();
			sentinel.kill(master);
			Pause.millis(300);
			release.countDown();
			RedisServerProcess promoted = sentinel.awaitPromotion(Duration.ofSeconds(20));
			long promotion = System.nanoTime();
			assertThat(promoted.port()).as("the promoted master is another node than the killed one")
				.isNotEqualTo(master.port());
			// Until every key was granted again and both indicators said UP, at most 6 s.
			long end = promotion + Duration.ofSeconds(6).toNanos();
			while (System.nanoTime() - end < 0 && !recovered(new FailoverRun(run, kill, promotion, callers.calls(),
					List.of(), List.of(), 0, health, defaultsHealth))) {
				Pause.millis(100);
			}
			List<String> hung = callers.stop(Duration.ofSeconds(5));
			FailoverRun result = new FailoverRun(run, kill, promotion, callers.calls(), callers.releases(), hung,
					callers.bodiesWithoutValidHold(), health, defaultsHealth);
			rejoin(master, promoted);
			return result;
		}
	}

	private static boolean recovered(FailoverRun run) {
		return run.recoveryMillis().size() == 4 && run.healthUpMillis(false) >= 0 && run.healthUpMillis(true) >= 0;
	}

	private static DistributedLockHealthIndicator health(ConfigurableApplicationContext context) {
		return new DistributedLockHealthIndicator(context.getBean(RedisLockClient.class).monitor());
	}

	/**
	 * Starts the killed node again, as a replica of the new master, and waits for its
	 * sync.
	 */
	private static void rejoin(RedisServerProcess node, RedisServerProcess master) {
		node.start();
		RedisAdminCommands.call(node, "REPLICAOF", master.host(), String.valueOf(master.port()));
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> RedisAdminCommands.text(node, "INFO", "replication").contains("master_link_status:up"));
	}

}
