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
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.actuate.DistributedLockHealthIndicator;
import dev.distlock.faults.LockCallLog.Call;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, item 4 on a Redis Cluster: the master that serves the slot of held and
 * contended locks is killed ({@code SIGKILL}) and its replica promoted, while the
 * applications, configured as a Boot user configures them
 * ({@code spring.data.redis.cluster.nodes}, {@code spring.data.redis.timeout=2s} as the
 * docs/failures-and-http.md asks, Lettuce's other defaults), hold and call. Calls fail
 * with {@link dev.distlock.LockUnavailableException} during the failover, every key is
 * granted again within 5 s of the promotion, including those held at the kill, and health
 * is {@code DOWN} until the replica takes over (which precedes by some milliseconds the
 * moment every node reports the cluster OK, when the test takes the promotion as done).
 * {@link ClusterFailoverFencingTests} covers tokens and lost leases.
 */
class ClusterFailoverTests {

	static final String TIMEOUT = "spring.data.redis.timeout=2s";

	private static final long REQUIRED_MS = 5000;

	private static final LockOptions CALL = new LockOptions(Duration.ofMillis(500), Duration.ofSeconds(5));

	private static RedisClusterDeployment cluster;

	private static ClusterApps apps;

	@BeforeAll
	static void start() {
		cluster = RedisClusterDeployment.start();
		apps = new ClusterApps(cluster);
	}

	@AfterAll
	static void stop() {
		apps.close();
		cluster.close();
	}

	@Test
	void callsFailClosedDuringTheFailoverAndEveryKeyIsGrantedSoonAfterThePromotion() throws Exception {
		RedisServerProcess master = apps.masterWithReplica();
		List<String> held = apps.keysOn(master, "failover:held", 2);
		List<String> keys = new ArrayList<>(held);
		keys.addAll(apps.keysOn(master, "failover:free", 2));
		String otherKey = apps.keyNotOn(master, "failover:other");
		RedisLockClient holder = ClusterApps.client(apps.start(TIMEOUT));
		RedisLockClient caller = ClusterApps.client(apps.start(TIMEOUT));
		List<LockHandle> holds = new ArrayList<>();
		for (String key : held) {
			holds.add(holder.lock(key, LockOptions.renewing(Duration.ofSeconds(2))));
		}
		LockCallLog log = new LockCallLog();
		log.start(caller, keys, CALL, Duration.ofMillis(20));
		List<RedisServerProcess> replicas = cluster.replicasOf(master);
		Pause.millis(500);
		long kill = System.nanoTime();
		cluster.kill(master);
		PromotionWatch promotion = new PromotionWatch(replicas, kill);
		HealthWatch health = new HealthWatch(new DistributedLockHealthIndicator(caller.monitor()));
		boolean otherSlotLocks = LockCalls.firstAcquisition(caller, otherKey,
				new LockOptions(Duration.ZERO, Duration.ofSeconds(2)), Duration.ofMillis(300)) > 0;
		List<String> releases = new CopyOnWriteArrayList<>();
		holds.forEach((hold) -> new Thread(() -> releases.add(LockCalls.release(hold))).start());
		cluster.awaitPromotion(held.get(0), Duration.ofSeconds(15));
		long promoted = System.nanoTime();
		long unpromoted = promotion.lastUnpromoted();
		Pause.millis(7000);
		log.stop();
		health.close();
		Map<String, Long> recovery = recoveryAfterPromotion(log.calls(), kill, promoted);
		Map<String, Integer> outcomes = new TreeMap<>();
		long longestRefusal = 0;
		for (Call call : log.calls()) {
			if (call.end() > kill && call.start() < promoted + REQUIRED_MS * 1_000_000) {
				outcomes.merge(call.outcome(), 1, Integer::sum);
				longestRefusal = Math.max(longestRefusal, call.granted() ? 0 : call.end() - call.start());
			}
		}
		int overlaps = keys.stream().mapToInt((key) -> log.holds(key).overlaps()).sum();
		Figures.record("cluster failover",
				"promotion %d ms after the kill; first grant after the promotion per key (ms): %s; calls from the "
						+ "kill to promotion + 5 s: %s, longest refusal %d ms; releases at the kill: %s; %d overlapping "
						+ "bodies; a key of another master locked during the outage: %s",
				(promoted - kill) / 1_000_000, recovery, outcomes, longestRefusal / 1_000_000, releases, overlaps,
				otherSlotLocks);
		Figures.record("cluster failover health", "replica still a replica %d ms after the kill; %s",
				(unpromoted - kill) / 1_000_000, health.describe(kill, promoted));
		assertThat(recovery).as("keys granted again").containsOnlyKeys(keys);
		assertThat(recovery.values()).allSatisfy((ms) -> assertThat(ms).isLessThanOrEqualTo(REQUIRED_MS));
		assertThat(outcomes.keySet()).as("outcomes")
			.isSubsetOf(Call.GRANTED, "LockUnavailableException", "LockNotAcquiredException")
			.contains("LockUnavailableException");
		assertThat(longestRefusal / 1_000_000).as("longest refused call, ms (wait 500 + timeout 2000)")
			.isLessThanOrEqualTo(3000);
		assertThat(overlaps).as("overlapping bodies of one client").isZero();
		assertThat(health.downAskedBetween(kill, promoted)).as("a health sample DOWN during the outage").isTrue();
		assertThat(health.allDownBetween(kill, unpromoted))
			.as("health samples taken while the killed master's replica was still a replica")
			.isTrue();
		assertThat(health.samples()
			.stream()
			.anyMatch((sample) -> sample.asked() - promoted > 0 && sample.status().equals(Status.UP)))
			.as("health UP after the promotion")
			.isTrue();
		assertThat(otherSlotLocks).as("control: a check on a key of another master stays UP").isTrue();
	}

	/**
	 * Per key, the time from the promotion to the first grant after the key's first
	 * refusal since the kill (the grants right after the kill were in flight before it).
	 */
	static Map<String, Long> recoveryAfterPromotion(List<Call> calls, long kill, long promoted) {
		Map<String, Long> firstRefusal = new TreeMap<>();
		Map<String, Long> recovery = new TreeMap<>();
		for (Call call : calls) {
			if (call.end() > kill && !call.granted()) {
				firstRefusal.merge(call.key(), call.end(), Math::min);
			}
		}
		calls.stream()
			.filter(Call::granted)
			.filter((call) -> firstRefusal.containsKey(call.key()) && call.end() > firstRefusal.get(call.key()))
			.forEach((call) -> recovery.merge(call.key(), (call.end() - promoted) / 1_000_000, Math::min));
		return recovery;
	}

}
