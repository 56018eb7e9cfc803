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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 5: a waiter killed ({@code SIGKILL}) while its place in the queue is
 * still valid must not strand the lock for a whole lease when the release hands it the
 * lock: the next waiter gets it within the claim window + 1 s (3 s) of the release,
 * whatever the lease. The control kills the holder instead and shows that the stranding
 * measure sees the lease.
 * <p>
 * Runs alone, not beside the other scenarios: it times worker JVMs against a 1 s bound,
 * and the worker JVMs other classes start beside it on two cores once starved the next
 * waiter for 2.4 s more (4,458 ms from the release, 2,007–2,023 ms when run alone).
 */
@Isolated
class CrashedWaiterTests {

	private static final long REQUIRED_MS = 3000;

	private static RedisNode redis;

	private static List<String> properties;

	private static WorkerJvm holderA;

	private static WorkerJvm waiterC;

	private static int runs;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		holderA = WorkerJvm.start("A", properties);
		waiterC = WorkerJvm.start("C", properties);
	}

	@AfterAll
	static void stop() {
		waiterC.close();
		holderA.close();
		redis.close();
	}

	@Test
	void nextWaiterGetsTheLockSoonAfterACrashedWaiterWithRenewedLease() {
		assertNextWaiterNotStranded("renewed 30 s lease", "renew", 30_000);
	}

	@Test
	void nextWaiterGetsTheLockSoonAfterACrashedWaiterWithFixedLease() {
		assertNextWaiterNotStranded("fixed 6 s lease", "6000", 6_000);
	}

	@Test
	void controlCrashedHolderStrandsTheLockForItsLease() {
		String run = String.valueOf(runs++);
		String key = "lock:crashed:" + UUID.randomUUID();
		try (WorkerJvm holder = WorkerJvm.start("crashing holder", properties)) {
			holder.send("hold x" + run + " " + key + " 6000 -1 0");
			holder.await("acquired x" + run, Duration.ofSeconds(5));
			waiterC.send("hold c" + run + " " + key + " 6000 100 20000");
			waiterC.await("waiting " + key, Duration.ofSeconds(5));
			long killed = holder.kill();
			long acquired = Long.parseLong(waiterC.await("acquired c" + run, Duration.ofSeconds(10))[3]);
			long stranded = (acquired - killed) / 1_000_000;
			Figures.record("crashed waiter control",
					"holder killed with a 6 s fixed lease: next waiter got the lock " + "%d ms after the kill",
					stranded);
			assertThat(stranded).isGreaterThan(5000);
		}
		waiterC.await("released c" + run, Duration.ofSeconds(3));
	}

	private void assertNextWaiterNotStranded(String name, String lease, long leaseMs) {
		String run = String.valueOf(runs++);
		String key = "lock:crashed:" + UUID.randomUUID();
		holderA.send("hold a" + run + " " + key + " " + lease + " -1 0");
		holderA.await("acquired a" + run, Duration.ofSeconds(5));
		long released;
		try (WorkerJvm waiterB = WorkerJvm.start("B", properties)) {
			waiterB.send("hold b" + run + " " + key + " " + lease + " 100 60000");
			waiterB.await("waiting " + key, Duration.ofSeconds(5));
			waiterC.send("hold c" + run + " " + key + " " + lease + " 100 60000");
			waiterC.await("waiting " + key, Duration.ofSeconds(5));
			long killed = waiterB.kill();
			Pause.until(killed + 1_500_000_000L);
			holderA.send("release a" + run);
			released = Long.parseLong(holderA.await("released a" + run, Duration.ofSeconds(5))[2]);
		}
		String[] acquired = waiterC.poll("acquired c" + run, Duration.ofMillis(leaseMs + 3000));
		long stranded = (acquired != null) ? (Long.parseLong(acquired[3]) - released) / 1_000_000 : -1;
		Figures.record("crashed waiter: " + name, "next waiter got the lock %s after the release",
				(acquired != null) ? stranded + " ms" : "not within " + (leaseMs + 3000) + " ms");
		if (acquired != null) {
			waiterC.await("released c" + run, Duration.ofSeconds(3));
		}
		assertThat(acquired).as("next waiter acquired").isNotNull();
		assertThat(stranded).as("ms from the release to the next waiter's acquisition")
			.isLessThanOrEqualTo(REQUIRED_MS);
	}

}
