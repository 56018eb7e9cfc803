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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * The kinds scenarios' coordinator: forks the worker JVMs once, then for each
 * {@link SharedLoad} runs one unmeasured block per contender and blocks of a fixed length
 * that rotate through its contenders, each block on keys of its own. Reads the holds the
 * workers write and accumulates them per contender ({@link SharedHoldStats}).
 */
final class KindsScenario {

	private static final long START_DELAY_NANOS = 300_000_000L;

	private final RedisTarget target;

	private final StringRedisTemplate redis;

	private final KindsSizes sizes;

	private final Path workDir;

	private int blocks;

	/**
	 * Creates the scenarios.
	 * @param target the Redis server
	 * @param redis the harness's template, for the counters
	 * @param sizes the sizes
	 * @param workDir where workers write their holds
	 */
	KindsScenario(RedisTarget target, StringRedisTemplate redis, KindsSizes sizes, Path workDir) {
		this.target = target;
		this.redis = redis;
		this.sizes = sizes;
		this.workDir = workDir;
	}

	/**
	 * Runs every scenario.
	 * @return per scenario, the figures of its contenders in table order
	 * @throws IOException if the workers' files cannot be read
	 */
	Map<SharedLoad, List<SharedHoldStats>> run() throws IOException {
		List<ForkedJvm> workers = new ArrayList<>();
		System.err.println("Starting " + this.sizes.workers() + " worker JVMs ...");
		try {
			for (int w = 0; w < this.sizes.workers(); w++) {
				workers.add(ForkedJvm.start("512m", KindsWorker.class, this.target.argument(),
						Integer.toString(this.sizes.threadsPerWorker()), Integer.toString(w),
						Integer.toString(this.sizes.permits())));
			}
			workers.forEach(ForkedJvm::reply);
			Map<SharedLoad, List<SharedHoldStats>> results = new LinkedHashMap<>();
			for (SharedLoad load : SharedLoad.values()) {
				results.put(load, run(workers, load));
			}
			return results;
		}
		finally {
			workers.forEach((worker) -> worker.send("quit"));
			workers.forEach(ForkedJvm::close);
		}
	}

	private List<SharedHoldStats> run(List<ForkedJvm> workers, SharedLoad load) throws IOException {
		System.err.println("Running kinds: " + load.id() + " ...");
		Map<String, SharedHoldStats> stats = new LinkedHashMap<>();
		for (String id : load.contenders()) {
			SharedHoldStats contenderStats = new SharedHoldStats(KindsContenderSet.NAMES.get(id), this.sizes.permits());
			for (int w = 0; w < workers.size(); w++) {
				for (int t = 0; t < this.sizes.threadsPerWorker(); t++) {
					contenderStats.registerHolder("w" + w + "-t" + t);
				}
			}
			stats.put(id, contenderStats);
			if (this.sizes.warmupMillis() > 0) {
				block(workers, load, id, this.sizes.warmupMillis(),
						new SharedHoldStats(contenderStats.contender(), this.sizes.permits()));
			}
		}
		for (int round = 0; round < this.sizes.rounds(); round++) {
			for (String id : Rotation.forRound(load.contenders(), round)) {
				block(workers, load, id, this.sizes.blockMillis(), stats.get(id));
			}
		}
		return new ArrayList<>(stats.values());
	}

	private void block(List<ForkedJvm> workers, SharedLoad load, String id, int millis, SharedHoldStats stats)
			throws IOException {
		int block = this.blocks++;
		String prefix = "bench:kinds:" + load.id() + ":" + id + ":" + block + ":";
		String lockKey = prefix + "lock";
		String counterKey = prefix + "counter";
		this.redis.opsForValue().set(counterKey, "0");
		ForkedJvm first = workers.get(0);
		first.send(String.join(" ", "prepare", id, lockKey, Integer.toString(this.sizes.permits())));
		first.reply();
		long start = System.nanoTime() + START_DELAY_NANOS;
		long stop = start + millis * 1_000_000L;
		List<Path> files = new ArrayList<>();
		for (int w = 0; w < workers.size(); w++) {
			Path file = this.workDir.resolve("kinds-" + block + "-w" + w + ".txt");
			files.add(file);
			workers.get(w)
				.send(String.join(" ", "block", load.id(), id, lockKey, counterKey, Long.toString(start),
						Long.toString(stop), Long.toString(this.sizes.criticalSectionMicros() * 1_000L),
						Double.toString(this.sizes.readShare()), file.toString()));
		}
		workers.forEach(ForkedJvm::reply);
		List<SharedHoldStats.Hold> holds = new ArrayList<>();
		for (int w = 0; w < files.size(); w++) {
			for (String line : Files.readAllLines(files.get(w))) {
				String[] fields = line.split(" ");
				holds.add(new SharedHoldStats.Hold("w" + w + "-t" + fields[0], Access.of(fields[1].charAt(0)),
						Long.parseLong(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[4]),
						fields[5].equals("1")));
			}
			Files.delete(files.get(w));
		}
		stats.add(holds, Long.parseLong(this.redis.opsForValue().get(counterKey)));
		System.err.printf("  kinds %s %s block %d: %d holds%n", load.id(), id, block, holds.size());
	}

}
