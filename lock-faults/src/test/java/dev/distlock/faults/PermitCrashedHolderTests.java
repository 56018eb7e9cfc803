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

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, permits: the holder of one of a semaphore's 2 permits is killed
 * ({@code SIGKILL}) while two other JVMs contend for the permits. Its permit comes back
 * within its renewed lease ({@code distlock.renewal.lease=3s} in its process) after the
 * kill, and never are more than 2 holders at once, counted from the holds of every JVM.
 * The control does the same with a semaphore on a plain counter, which never gets the
 * dead holder's permit back.
 */
class PermitCrashedHolderTests {

	private static final int PERMITS = 2;

	private static final long CRASHED_LEASE_MS = 3000;

	private static final long SLACK_MS = 300;

	private static RedisNode redis;

	private static RedisNode resource;

	private static List<String> crashingProperties;

	private static WorkerJvm workerA;

	private static WorkerJvm workerB;

	@TempDir
	Path files;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
		crashingProperties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s",
				"distlock.renewal.lease=" + CRASHED_LEASE_MS + "ms");
		workerA = WorkerJvm.start("A", properties);
		workerB = WorkerJvm.start("B", properties);
	}

	@AfterAll
	static void stop() {
		workerB.close();
		workerA.close();
		resource.close();
		redis.close();
	}

	@Test
	void crashedHoldersPermitComesBackWithinItsLeaseAndNeverMoreThanThePermitsHold() {
		CrashRun run = contendAroundACrash("permits:" + PERMITS);
		Long back = run.contenders().firstConcurrent(PERMITS, run.killed());
		long backMs = (back != null) ? (back - run.killed()) / 1_000_000 : -1;
		Figures.record("permits: crashed holder",
				"holder of 1 of %d permits (renewed %d ms lease) killed while 2 JVMs x 2 threads contend: "
						+ "%d holds, at most %d at once; both permits held again %s after the kill; failed calls %s",
				PERMITS, CRASHED_LEASE_MS, run.all().holds().size(), run.all().maxConcurrent(),
				(back != null) ? backMs + " ms" : "never", run.errors());
		assertThat(run.all().maxConcurrent()).as("most holders at once").isLessThanOrEqualTo(PERMITS);
		assertThat(back).as("the crashed holder's permit came back").isNotNull();
		assertThat(backMs).as("ms from the kill until both permits were held again")
			.isLessThanOrEqualTo(CRASHED_LEASE_MS + SLACK_MS);
	}

	@Test
	void controlPlainCounterSemaphoreNeverGetsTheCrashedHoldersPermitBack() {
		CrashRun run = contendAroundACrash("naive-permits:" + PERMITS);
		Long back = run.contenders().firstConcurrent(PERMITS, run.killed());
		Figures.record("permits: crashed holder control",
				"semaphore on a plain counter: %d holds after the kill, at most %d at once; both permits held again "
						+ "%s",
				run.contenders().holds().size(), run.contenders().maxConcurrent(),
				(back != null) ? (back - run.killed()) / 1_000_000 + " ms after the kill" : "never");
		assertThat(back).isNull();
	}

	private CrashRun contendAroundACrash(String lock) {
		String key = "lock:crashed-permit:" + UUID.randomUUID();
		Path fileA = this.files.resolve("a.txt");
		Path fileB = this.files.resolve("b.txt");
		try (WorkerJvm crashing = WorkerJvm.start("X", crashingProperties)) {
			crashing.send("hold x " + key + " renew -1 0 " + lock);
			String[] acquired = crashing.await("acquired x", Duration.ofSeconds(5));
			long contention = System.nanoTime();
			workerA.send(ContendedRun.command("a", lock, key, 2, 6000, 50, resource.port(), fileA));
			workerB.send(ContendedRun.command("b", lock, key, 2, 6000, 50, resource.port(), fileB));
			Pause.until(contention + 1_000_000_000L);
			long killed = crashing.kill();
			workerA.await("contended a", Duration.ofSeconds(20));
			workerB.await("contended b", Duration.ofSeconds(20));
			ContendedRun contenders = ContendedRun.read(Map.of("A", fileA, "B", fileB));
			HoldLog all = ContendedRun.read(Map.of("A", fileA, "B", fileB))
				.log()
				.add(new Hold("X", Long.parseLong(acquired[3]), killed, Long.parseLong(acquired[2]), true, false, key));
			return new CrashRun(contenders.log(), all, killed, contenders.errorCounts());
		}
	}

	private record CrashRun(HoldLog contenders, HoldLog all, long killed, Map<String, Integer> errors) {

	}

}
