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
 * Issue 23, permits: Redis killed while callers are queued for a semaphore's 2 permits,
 * and restarted empty after longer than a command timeout. Never more than 2 holders at
 * once; every call that ends while Redis is down ends with
 * {@code LockUnavailableException}, not "not acquired"; permits are granted again soon
 * after the restart, with tokens above every earlier grant. The control runs a semaphore
 * on a plain counter (and {@code INCR} tokens) through the same restart, with holds that
 * span it: more holders than permits, and tokens that go back.
 */
class PermitOutageTests {

	private static final int PERMITS = 2;

	private static final long COMMAND_TIMEOUT_MS = 2000;

	private static RedisNode redis;

	private static RedisNode resource;

	private static WorkerJvm workerA;

	private static WorkerJvm workerB;

	@TempDir
	Path files;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = LockApps.properties(redis.port(), "spring.data.redis.timeout=2s");
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
	void neverMoreHoldersThanPermitsAndTokensKeepIncreasingThroughAnEmptyRestart() {
		OutageRun outage = contendThroughRestart("permits:" + PERMITS, 100, 8000);
		ContendedRun run = outage.run();
		Map<String, Integer> errors = run.errorsBetween(outage.killed(), outage.restarted());
		long firstMs = run.firstHoldAfterMs(outage.restarted(), false);
		int tokensBack = run.log().tokensAfterNotAboveBefore(outage.restarted());
		Figures.record("permits: outage while queued",
				"%d permits, 6 threads of 2 JVMs, Redis restarted empty after %d ms: %d holds, at most %d at once; "
						+ "%d tokens after the restart not above every token before; calls ending during the "
						+ "outage: %s; first permit %d ms after the restart",
				PERMITS, COMMAND_TIMEOUT_MS + 500, run.log().holds().size(), run.log().maxConcurrent(), tokensBack,
				errors, firstMs);
		assertThat(run.log().maxConcurrent()).as("most holders at once").isLessThanOrEqualTo(PERMITS);
		assertThat(tokensBack).as("tokens going back").isZero();
		assertThat(errors).as("calls ending during the outage")
			.containsKey("LockUnavailableException")
			.doesNotContainKey("LockNotAcquiredException");
		assertThat(firstMs).as("ms after the restart until a permit was granted").isBetween(0L, 2000L);
	}

	@Test
	void controlPlainCounterSemaphoreAdmitsMoreHoldersAndItsTokensGoBackAfterAnEmptyRestart() {
		// The first holders' bodies span the outage: the restart wipes the count under
		// them.
		OutageRun outage = contendThroughRestart("naive-permits:" + PERMITS, 5000, 6000);
		ContendedRun run = outage.run();
		int tokensBack = run.log().tokensAfterNotAboveBefore(outage.restarted());
		Figures.record("permits: outage while queued, control",
				"semaphore on a plain counter, INCR tokens: %d holds, at most %d at once; %d tokens after the "
						+ "restart not above every token before",
				run.log().holds().size(), run.log().maxConcurrent(), tokensBack);
		assertThat(run.log().maxConcurrent()).isGreaterThan(PERMITS);
		assertThat(tokensBack).isPositive();
	}

	private OutageRun contendThroughRestart(String lock, long firstBodyMs, long durationMs) {
		String key = "lock:permits-restart:" + UUID.randomUUID();
		Path fileA = this.files.resolve("a.txt");
		Path fileB = this.files.resolve("b.txt");
		long start = System.nanoTime();
		workerA.send(ContendedRun.command("a", lock, key, 3, durationMs, firstBodyMs, resource.port(), fileA));
		// A's threads hold first, B's queue behind them.
		Pause.millis(300);
		workerB.send(ContendedRun.command("b", lock, key, 3, durationMs - 300, 100, resource.port(), fileB));
		Pause.until(start + 2_000_000_000L);
		long killed = redis.kill();
		// Longer than a command timeout, so that calls end during the outage.
		Pause.millis(COMMAND_TIMEOUT_MS + 500);
		long restarted = redis.restart();
		for (WorkerJvm worker : List.of(workerA, workerB)) {
			worker.await("contended", Duration.ofMillis(durationMs + 15_000));
		}
		return new OutageRun(ContendedRun.read(Map.of("A", fileA, "B", fileB)), killed, restarted);
	}

	private record OutageRun(ContendedRun run, long killed, long restarted) {

	}

}
