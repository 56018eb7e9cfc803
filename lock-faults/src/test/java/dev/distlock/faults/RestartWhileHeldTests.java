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
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 4: Redis killed while a lock is held, restarted empty on the same
 * port a second later, while the threads of one instance pass the lock among themselves
 * and another instance contends too. No two bodies may overlap, during the outage or
 * after it. The control runs the blog lock through the same fault and shows the overlap
 * the interval log catches.
 */
class RestartWhileHeldTests {

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
	void noOverlapWhenRedisRestartsEmptyWhileHeld() {
		HoldLog log = contendThroughRestart("distlock", 4, 2, 100, 2000, 8000);
		long counter = counter(log);
		Figures.record("restart while held",
				"%d holds, %d overlapping, %d lost updates on the unfenced counter, " + "%d fenced writes refused",
				log.holds().size(), log.overlaps(), log.holds().size() - counter,
				log.holds().stream().filter((hold) -> !hold.fencedAccepted()).count());
		assertThat(log.overlaps()).as("overlapping bodies").isZero();
	}

	@Test
	void controlBlogLockBodiesOverlapWhenRedisRestartsEmpty() {
		HoldLog log = contendThroughRestart("blog", 1, 1, 3000, 700, 4000);
		Figures.record("restart while held control", "blog lock: %d holds, %d overlapping", log.holds().size(),
				log.overlaps());
		assertThat(log.overlaps()).isPositive();
	}

	private HoldLog contendThroughRestart(String lock, int threadsA, int threadsB, long bodyMs, long killAfterMs,
			long durationMs) {
		String key = "lock:restart:" + UUID.randomUUID();
		Path fileA = this.files.resolve("a.txt");
		Path fileB = this.files.resolve("b.txt");
		long start = System.nanoTime();
		workerA.send(contend("a", lock, key, threadsA, durationMs, bodyMs, fileA));
		Pause.millis(300);
		workerB.send(contend("b", lock, key, threadsB, durationMs - 300, bodyMs, fileB));
		Pause.until(start + killAfterMs * 1_000_000);
		redis.kill();
		Pause.millis(1000);
		redis.restart();
		workerA.await("contended a", Duration.ofMillis(durationMs + 15_000));
		workerB.await("contended b", Duration.ofSeconds(15));
		this.currentKey = key;
		HoldLog log = new HoldLog().read("A", fileA).read("B", fileB);
		if (Boolean.getBoolean("faults.trace")) {
			log.holds()
				.stream()
				.sorted(java.util.Comparator.comparingLong(Hold::start))
				.forEach((hold) -> System.out.println("TRACE " + hold.holder() + " "
						+ (hold.start() - start) / 1_000_000 + ".." + (hold.end() - start) / 1_000_000 + " token "
						+ hold.token() + " " + hold.fencedAccepted()));
		}
		return log;
	}

	private String currentKey = "";

	private long counter(HoldLog log) {
		Long value = Resp.number(resource.port(), "GET", "counter:" + this.currentKey);
		return (value != null) ? value : 0;
	}

	private static String contend(String id, String lock, String key, int threads, long durationMs, long bodyMs,
			Path file) {
		return String.join(" ", "contend", id, lock, key, String.valueOf(threads), String.valueOf(durationMs), "renew",
				String.valueOf(bodyMs), String.valueOf(resource.port()), file.toString());
	}

}
