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

package dev.distlock.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A worker JVM of scenario 2. It creates every lock contender once, then runs blocks on
 * command:
 * {@code block <contender> <lockKey> <counterKey> <startNanos> <stopNanos> <csNanos> <file>}.
 * Its threads start together at {@code startNanos} ({@link System#nanoTime} is
 * {@code CLOCK_MONOTONIC}, the same clock in every process of the host) and keep taking
 * the lock until {@code stopNanos}. Under the lock they increment a shared counter with a
 * non-atomic GET and SET and hold for the critical-section time in all; each hold
 * interval is written to the file as {@code thread start end}.
 */
public final class ContendedWorker {

	private ContendedWorker() {
	}

	/**
	 * Runs the worker.
	 * @param args the Redis server or cluster ({@link RedisTarget#argument()}) and the
	 * number of threads
	 * @throws Exception on failure, after replying with an error
	 */
	public static void main(String[] args) throws Exception {
		RedisTarget target = RedisTarget.parse(args[0]);
		int threads = Integer.parseInt(args[1]);
		List<String> names = new ArrayList<>(ContenderSet.ids(target));
		names.remove(ContenderSet.FLOOR);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try (ContenderSet set = new ContenderSet(target, new HashSet<>(names), false)) {
			ForkedJvm.reply("ready");
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = commands.readLine()) != null && !line.equals("quit")) {
				try {
					ForkedJvm.reply("done " + runBlock(set, pool, threads, line.split(" ")));
				}
				catch (Exception ex) {
					ForkedJvm.reply("ERROR " + ex);
					throw ex;
				}
			}
		}
		finally {
			pool.shutdownNow();
		}
		System.exit(0);
	}

	private static int runBlock(ContenderSet set, ExecutorService pool, int threads, String[] command)
			throws Exception {
		Contender contender = set.get(command[1]);
		String lockKey = command[2];
		String counterKey = command[3];
		long start = Long.parseLong(command[4]);
		long stop = Long.parseLong(command[5]);
		long criticalSection = Long.parseLong(command[6]);
		List<Future<long[]>> holds = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			holds.add(
					pool.submit(() -> hold(contender, set.redis(), lockKey, counterKey, start, stop, criticalSection)));
		}
		int count = 0;
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(command[7])))) {
			for (int t = 0; t < threads; t++) {
				long[] intervals = holds.get(t).get();
				for (int i = 0; i < intervals.length; i += 2) {
					out.println(t + " " + intervals[i] + " " + intervals[i + 1]);
					count++;
				}
			}
		}
		return count;
	}

	private static long[] hold(Contender contender, StringRedisTemplate redis, String lockKey, String counterKey,
			long start, long stop, long criticalSection) {
		HoldFields intervals = new HoldFields(2);
		parkUntil(start);
		while (System.nanoTime() - stop < 0) {
			contender.runLocked(lockKey, () -> {
				long acquired = System.nanoTime();
				String value = redis.opsForValue().get(counterKey);
				redis.opsForValue().set(counterKey, Long.toString(Long.parseLong(value) + 1));
				parkUntil(acquired + criticalSection);
				intervals.add(acquired, System.nanoTime());
			});
		}
		return intervals.toArray();
	}

	static void parkUntil(long deadline) {
		long remaining;
		while ((remaining = deadline - System.nanoTime()) > 0) {
			LockSupport.parkNanos(remaining);
		}
	}

}
