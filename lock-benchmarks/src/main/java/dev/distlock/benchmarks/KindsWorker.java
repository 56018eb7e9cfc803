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
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.springframework.data.redis.core.ValueOperations;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * A worker JVM of the kinds scenarios. It creates the contenders once
 * ({@link KindsContenderSet}), then runs commands:
 * {@code prepare <contender> <lockKey> <permits>} and
 * {@code block <scenario> <contender> <lockKey> <counterKey> <startNanos> <stopNanos> <csNanos> <readShare> <file>}.
 * Its threads start together at {@code startNanos} (as in {@link ContendedWorker}) and
 * keep acquiring until {@code stopNanos}, each taking what {@link SharedLoad#next} picks
 * from random numbers seeded by worker and thread (so every contender gets the same
 * sequence). Under the lock a writer increments the counter with a non-atomic GET and
 * SET; a reader GETs it when it starts and again when it ends, and reports a torn read if
 * a write came between; every holder stays for the critical-section time in all. Each
 * hold is written to the file as {@code thread access requested acquired end torn}.
 */
public final class KindsWorker {

	private static final int FIELDS = 5;

	private KindsWorker() {
	}

	/**
	 * Runs the worker.
	 * @param args the Redis server ({@link RedisTarget#argument()}), the number of
	 * threads, this worker's index, and the permits of the semaphores
	 * @throws Exception on failure, after replying with an error
	 */
	public static void main(String[] args) throws Exception {
		RedisTarget target = RedisTarget.parse(args[0]);
		int threads = Integer.parseInt(args[1]);
		int worker = Integer.parseInt(args[2]);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try (KindsContenderSet set = new KindsContenderSet(target, Integer.parseInt(args[3]))) {
			ForkedJvm.reply("ready");
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line;
			while ((line = commands.readLine()) != null && !line.equals("quit")) {
				String[] command = line.split(" ");
				try {
					if (command[0].equals("prepare")) {
						set.get(command[1]).prepare(command[2], Integer.parseInt(command[3]));
						ForkedJvm.reply("prepared");
					}
					else {
						ForkedJvm.reply("done " + runBlock(set, pool, threads, worker, command));
					}
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

	private static int runBlock(KindsContenderSet set, ExecutorService pool, int threads, int worker, String[] command)
			throws Exception {
		SharedLoad load = SharedLoad.of(command[1]);
		SharedLockContender contender = set.get(command[2]);
		Block block = new Block(load, contender, set.redis().opsForValue(), command[3], command[4],
				Long.parseLong(command[5]), Long.parseLong(command[6]), Long.parseLong(command[7]),
				Double.parseDouble(command[8]));
		List<Future<long[]>> holds = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			SplittableRandom random = new SplittableRandom(worker * 1_000L + t);
			holds.add(pool.submit(() -> block.run(random)));
		}
		int count = 0;
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(command[9])))) {
			for (int t = 0; t < threads; t++) {
				long[] fields = holds.get(t).get();
				for (int i = 0; i < fields.length; i += FIELDS) {
					out.println(t + " " + (char) fields[i] + " " + fields[i + 1] + " " + fields[i + 2] + " "
							+ fields[i + 3] + " " + fields[i + 4]);
					count++;
				}
			}
		}
		return count;
	}

	/**
	 * What every thread of one block does.
	 */
	private record Block(SharedLoad load, SharedLockContender contender, ValueOperations<String, String> values,
			String lockKey, String counterKey, long start, long stop, long criticalSection, double readShare) {

		/**
		 * Holds until the block ends.
		 * @return per hold: access code, requested, acquired, end, torn (1 or 0)
		 */
		long[] run(SplittableRandom random) {
			HoldFields holds = new HoldFields(FIELDS);
			ContendedWorker.parkUntil(this.start);
			while (System.nanoTime() - this.stop < 0) {
				Access access = this.load.next(random, this.readShare);
				long requested = System.nanoTime();
				ExplicitContender.Held held = this.contender.acquire(this.lockKey, access);
				try {
					long acquired = System.nanoTime();
					boolean torn = work(access, acquired);
					holds.add(access.code(), requested, acquired, System.nanoTime(), torn ? 1 : 0);
				}
				finally {
					held.release();
				}
			}
			return holds.toArray();
		}

		private boolean work(Access access, long acquired) {
			String before = (access != Access.PERMIT) ? this.values.get(this.counterKey) : null;
			if (access == Access.WRITE) {
				this.values.set(this.counterKey, Long.toString(Long.parseLong(Objects.requireNonNull(before)) + 1));
			}
			ContendedWorker.parkUntil(acquired + this.criticalSection);
			return access == Access.READ && !Objects.equals(before, this.values.get(this.counterKey));
		}

	}

}
