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

import org.HdrHistogram.Histogram;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Scenario 2: one key, several worker JVMs with several threads each, a critical section
 * of a fixed time doing a non-atomic GET/SET increment. Blocks of a fixed length
 * alternate the contenders; the workers stay up for the whole scenario.
 */
final class ContendedScenario {

	private static final long START_DELAY_NANOS = 300_000_000L;

	/** 2×PING pairs measured after each block, for the floor of the hand-over gap. */
	private static final int FLOOR_PAIRS_PER_BLOCK = 500;

	private final RedisTarget target;

	private final StringRedisTemplate redis;

	private final BlockCommands commands;

	private final Map<String, String> contenders;

	private final BenchSizes sizes;

	private final Path workDir;

	private final Contender floor;

	private final Histogram floorLatency = new Histogram(3);

	private int blocks;

	/**
	 * Creates the scenario.
	 * @param target the Redis server or cluster
	 * @param redis the harness's template, for the shared counter
	 * @param commands counts the commands Redis executes in each block
	 * @param contenders display names by contender id, in table order
	 * @param sizes the sizes
	 * @param workDir where workers write their hold intervals
	 * @param floor the 2×PING floor, measured between the blocks
	 */
	ContendedScenario(RedisTarget target, StringRedisTemplate redis, BlockCommands commands,
			Map<String, String> contenders, BenchSizes sizes, Path workDir, Contender floor) {
		this.floor = floor;
		this.target = target;
		this.redis = redis;
		this.commands = commands;
		this.contenders = contenders;
		this.sizes = sizes;
		this.workDir = workDir;
	}

	/**
	 * Returns the 2×PING latency measured between the blocks.
	 * @return the floor's latency in nanoseconds
	 */
	Histogram floorLatency() {
		return this.floorLatency;
	}

	List<HandOverStats> run() throws IOException {
		List<ForkedJvm> workers = new ArrayList<>();
		try {
			for (int w = 0; w < this.sizes.workers(); w++) {
				workers.add(ForkedJvm.start("512m", ContendedWorker.class, this.target.argument(),
						Integer.toString(this.sizes.threadsPerWorker())));
			}
			workers.forEach(ForkedJvm::reply);
			return run(workers);
		}
		finally {
			workers.forEach((worker) -> worker.send("quit"));
			workers.forEach(ForkedJvm::close);
		}
	}

	private List<HandOverStats> run(List<ForkedJvm> workers) throws IOException {
		Map<String, HandOverStats> stats = new LinkedHashMap<>();
		List<String> ids = new ArrayList<>(this.contenders.keySet());
		for (String id : ids) {
			HandOverStats contenderStats = new HandOverStats(this.contenders.get(id));
			for (int w = 0; w < workers.size(); w++) {
				for (int t = 0; t < this.sizes.threadsPerWorker(); t++) {
					contenderStats.registerHolder("w" + w + "-t" + t);
				}
			}
			stats.put(id, contenderStats);
			if (this.sizes.contendedWarmupMillis() > 0) {
				block(workers, id, this.sizes.contendedWarmupMillis(), new HandOverStats(id));
			}
		}
		for (int round = 0; round < this.sizes.contendedRounds(); round++) {
			for (String id : Rotation.forRound(ids, round)) {
				block(workers, id, this.sizes.contendedBlockMillis(), stats.get(id));
			}
		}
		return new ArrayList<>(stats.values());
	}

	private void block(List<ForkedJvm> workers, String id, int millis, HandOverStats stats) throws IOException {
		int block = this.blocks++;
		String counterKey = "bench:s2:counter:" + id + ":" + block;
		this.redis.opsForValue().set(counterKey, "0");
		long start = System.nanoTime() + START_DELAY_NANOS;
		long stop = start + millis * 1_000_000L;
		List<Path> files = new ArrayList<>();
		for (int w = 0; w < workers.size(); w++) {
			Path file = this.workDir.resolve("block-" + block + "-w" + w + ".txt");
			files.add(file);
			workers.get(w)
				.send(String.join(" ", "block", id, "bench:s2:lock:" + id, counterKey, Long.toString(start),
						Long.toString(stop), Long.toString(this.sizes.criticalSectionMicros() * 1_000L),
						file.toString()));
		}
		this.commands.before();
		workers.forEach(ForkedJvm::reply);
		stats.addCommands(this.commands.after(stats.contender()));
		List<HandOverStats.Hold> holds = new ArrayList<>();
		for (int w = 0; w < files.size(); w++) {
			for (String line : Files.readAllLines(files.get(w))) {
				String[] fields = line.split(" ");
				holds.add(new HandOverStats.Hold("w" + w + "-t" + fields[0], Long.parseLong(fields[1]),
						Long.parseLong(fields[2])));
			}
			Files.delete(files.get(w));
		}
		stats.add(holds, Long.parseLong(this.redis.opsForValue().get(counterKey)));
		for (int i = 0; i < FLOOR_PAIRS_PER_BLOCK; i++) {
			long pairStart = System.nanoTime();
			this.floor.runLocked(counterKey, () -> {
			});
			this.floorLatency.recordValue(System.nanoTime() - pairStart);
		}
		System.err.printf("  contended %s block %d: %d holds%n", id, block, holds.size());
	}

	/**
	 * Renders the results.
	 * @param results the results
	 * @param floorNanos the 2×PING p50, for the gap ratio
	 * @param criticalSectionNanos the nominal critical section, for the efficiency
	 * @return the table
	 */
	static String table(List<HandOverStats> results, double floorNanos, long criticalSectionNanos) {
		MarkdownTable table = new MarkdownTable("contender", "holds", "holds/s", "efficiency", "mean hold ms",
				"lock busy", "gap p50 µs", "gap mean µs", "gap p99 µs", "gap max µs", "gap p50 / floor",
				"gap p50 across JVMs µs", "overlaps", "lost increments", "min/max per thread", "re-taken by releaser",
				"handed within JVM", "scripts/hold", "other commands/hold", "Redis cmds/hold");
		for (HandOverStats stats : results) {
			table.row(stats.contender(), stats.holds(), MarkdownTable.number(stats.throughput(), 0),
					MarkdownTable.number(stats.throughput() * criticalSectionNanos / 1e9, 2),
					MarkdownTable.number(stats.meanHoldNanos() / 1e6, 3), MarkdownTable.number(stats.busyShare(), 2),
					MarkdownTable.micros(stats.gaps().getValueAtPercentile(50)),
					MarkdownTable.micros(stats.gaps().getMean()),
					MarkdownTable.micros(stats.gaps().getValueAtPercentile(99)),
					MarkdownTable.micros(stats.gaps().getMaxValue()),
					MarkdownTable.number(stats.gaps().getValueAtPercentile(50) / floorNanos, 2),
					MarkdownTable.micros(stats.crossProcessGaps().getValueAtPercentile(50)), stats.overlaps(),
					stats.lostIncrements(),
					stats.minAcquisitions() + "/" + stats.maxAcquisitions() + " = "
							+ MarkdownTable
								.number((double) stats.minAcquisitions() / Math.max(1, stats.maxAcquisitions()), 2),
					percent(stats.sameThreadShare()), percent(stats.sameProcessShare()),
					MarkdownTable.number(stats.scriptsPerHold(), 2),
					MarkdownTable.number(stats.otherCommandsPerHold(), 2),
					PairCommands.cell(stats.pairCommands().callsPerPair()));
		}
		return table.render();
	}

	/**
	 * Renders the commands of every contender per hold.
	 * @param results the results
	 * @return the table
	 */
	static String commandsTable(List<HandOverStats> results) {
		Map<String, PairCommands> rows = new LinkedHashMap<>();
		results.forEach((stats) -> rows.put(stats.contender(), stats.pairCommands()));
		return PairCommands.table(rows, "hold");
	}

	private static String percent(double share) {
		return MarkdownTable.number(share * 100, 1) + " %";
	}

}
