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

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 7: a RedLock client paused ({@code SIGSTOP}) past its validity, on 3
 * nodes, with worker JVMs configured as a user configures them
 * ({@code distlock.store=redlock}, {@code distlock.redlock.nodes}). A holds with a fixed
 * lease of 1 s and is stopped; B is granted once A's lease ran out on the nodes and
 * writes the resource; A, continued, writes with its old hold. The fenced register
 * refuses A's write and keeps B's; the control writes a plain register instead, and A's
 * late write overwrites B's: B's write is lost.
 */
class RedLockPausedClientTests {

	private static RedLockFaultNodes nodes;

	private static RedisNode resource;

	private static WorkerJvm workerA;

	private static WorkerJvm workerB;

	private static int runs;

	@BeforeAll
	static void start() {
		nodes = RedLockFaultNodes.start(3);
		resource = RedisNode.start(Persistence.NONE);
		List<String> properties = nodes.properties(resource.port(), Duration.ofMillis(50));
		workerA = WorkerJvm.start("A", properties);
		workerB = WorkerJvm.start("B", properties);
	}

	@AfterAll
	static void stop() {
		workerB.close();
		workerA.close();
		resource.close();
		nodes.close();
	}

	@Test
	void pausedClientsWriteAfterItsValidityIsRefusedByTheFence() {
		Run run = pauseAWhileBWrites("write");
		String register = String.valueOf(Resp.call(resource.port(), "HGET", "fenced:" + run.key(), "value"));
		Figures.record("redlock client paused past its validity",
				"A token %d paused %d ms, B granted %d ms after A's grant with token %d; B's fenced write %s, "
						+ "A's write on resume %s, register holds %s",
				run.tokenA(), run.pausedMs(), run.grantedBAfterMs(), run.tokenB(), run.replyB()[2], run.replyA()[2],
				register);
		assertThat(run.tokenB()).as("B's token").isGreaterThan(run.tokenA());
		assertThat(run.replyB()[2]).as("B's fenced write accepted").isEqualTo("true");
		assertThat(run.replyA()[2]).as("A's fenced write after its pause accepted").isEqualTo("false");
		assertThat(register).as("the register keeps B's write").isEqualTo("b" + run.id());
	}

	@Test
	void controlWithoutTheFenceThePausedClientOverwritesTheOthersWrite() {
		Run run = pauseAWhileBWrites("write-unfenced");
		String register = String.valueOf(Resp.call(resource.port(), "GET", "plain:" + run.key()));
		Figures.record("redlock client paused past its validity (control, no fence)",
				"A token %d paused %d ms, B granted %d ms after A's grant with token %d; plain register holds %s: "
						+ "B's write %s",
				run.tokenA(), run.pausedMs(), run.grantedBAfterMs(), run.tokenB(), register,
				register.equals("b" + run.id()) ? "kept" : "lost");
		assertThat(register).as("the plain register after A's late write").isEqualTo("a" + run.id());
	}

	private Run pauseAWhileBWrites(String write) {
		String id = String.valueOf(runs++);
		String key = "redlock:paused:" + UUID.randomUUID();
		workerA.send("hold a" + id + " " + key + " 1000 -1 0");
		String[] acquiredA = workerA.await("acquired a" + id, Duration.ofSeconds(5));
		long pausedAt = System.nanoTime();
		workerA.pause();
		String[] acquiredB;
		String[] replyB;
		try {
			workerB.send("hold b" + id + " " + key + " 5000 -1 5000");
			acquiredB = workerB.await("acquired b" + id, Duration.ofSeconds(8));
			workerB.send(write + " b" + id + " " + resource.port());
			replyB = workerB.await(write.equals("write") ? "written b" + id : "written-unfenced b" + id,
					Duration.ofSeconds(5));
		}
		finally {
			workerA.resume();
		}
		long pausedMs = (System.nanoTime() - pausedAt) / 1_000_000;
		workerA.send(write + " a" + id + " " + resource.port());
		String[] replyA = workerA.await(write.equals("write") ? "written a" + id : "written-unfenced a" + id,
				Duration.ofSeconds(5));
		workerA.send("release a" + id);
		workerB.send("release b" + id);
		workerA.await("released a" + id, Duration.ofSeconds(5));
		workerB.await("released b" + id, Duration.ofSeconds(5));
		return new Run(id, key, Long.parseLong(acquiredA[2]), Long.parseLong(acquiredB[2]), pausedMs,
				(Long.parseLong(acquiredB[3]) - Long.parseLong(acquiredA[3])) / 1_000_000, replyA, replyB);
	}

	/** What one run saw. */
	private record Run(String id, String key, long tokenA, long tokenB, long pausedMs, long grantedBAfterMs,
			String[] replyA, String[] replyB) {

	}

}
