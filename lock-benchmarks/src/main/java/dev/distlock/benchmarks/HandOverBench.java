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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import dev.distlock.test.redis.RedisServerProcess;

/**
 * The hand-over across processes: {@code ./bench/run handover [smoke]}. Two worker JVMs
 * ({@link HandOverWorker}), one thread each, pass one lock back and forth: one holds it
 * while the other waits for it, the holder releases, the other's section starts, and the
 * roles swap. The gap of a hand-over is the time from the release call in one JVM to the
 * first line of the next holder's section in the other ({@link System#nanoTime} is the
 * same {@code CLOCK_MONOTONIC} in both). Contenders alternate in blocks, and 2×PING pairs
 * measured in this JVM between the blocks give the floor. With a distlock build that
 * stamps the stages of a hand-over ({@code dev.distlock.redis.HandOverStamps}, made for
 * the timeline only), the run also breaks distlock's gaps into those stages.
 */
final class HandOverBench {

	/**
	 * The contenders measured, in table order: distlock's client, Redisson's RLock and
	 * Spring Integration's PUB_SUB_LOCK, or those that {@code BENCH_HANDOVER_CONTENDERS}
	 * names (ids separated by commas), to measure one alone.
	 */
	static final List<String> CONTENDERS = contenders(System.getenv("BENCH_HANDOVER_CONTENDERS"));

	/** 2×PING pairs measured after each block, for the floor. */
	private static final int FLOOR_PAIRS_PER_BLOCK = 500;

	/**
	 * 2×PING pairs measured after each block, each after an idle {@link #HOLD_NANOS}, for
	 * the floor after idling.
	 */
	private static final int IDLE_FLOOR_PAIRS_PER_BLOCK = 100;

	private static final long START_DELAY_NANOS = 300_000_000L;

	/** How long each hold lasts: long enough for the other worker to queue. */
	private static final long HOLD_NANOS = 2_000_000L;

	/**
	 * How many blocks in a row must compile less than
	 * {@link Sizes#settledCompileMillis()}: one calm block was seen followed by one of 2
	 * to 3 s of compiling.
	 */
	private static final int SETTLED_BLOCKS = 2;

	/** How long a worker waits after its release before it asks for the lock again. */
	private static final long PAUSE_NANOS = 500_000L;

	private HandOverBench() {
	}

	private static List<String> contenders(@Nullable String named) {
		return (named != null && !named.isBlank()) ? List.of(named.trim().split("\\s*,\\s*"))
				: List.of("distlock-client", "redisson", "si-pubsub");
	}

	/**
	 * The sizes of a run. Each contender is warmed up in unmeasured blocks until the
	 * workers' JIT compilers have settled: on 2 vCPUs, a compiler thread still at work
	 * takes a core from the hand-overs, and the code of a contender is compiled only as
	 * it runs. On this scenario's first runs the workers were still compiling for 1 to
	 * 3.6 s per block of 2,000 hand-overs until about 30 s in, and the gap's p50 fell by
	 * a third once they stopped.
	 *
	 * @param warmupHandOvers hand-overs of each unmeasured block
	 * @param maxWarmupBlocks the most unmeasured blocks per contender, settled or not
	 * @param settledCompileMillis the JIT compilation time of both workers together
	 * during a block below which the block counts as calm; the contender is warmed up
	 * after {@link HandOverBench#SETTLED_BLOCKS} calm blocks in a row
	 * @param handOversPerBlock hand-overs of each measured block
	 * @param rounds measured blocks per contender, alternating the contenders
	 */
	record Sizes(int warmupHandOvers, int maxWarmupBlocks, long settledCompileMillis, int handOversPerBlock,
			int rounds) {

		static Sizes full() {
			return new Sizes(2_000, 16, 200, 2_000, 4);
		}

		static Sizes smoke() {
			return new Sizes(200, 1, 0, 200, 1);
		}

	}

	/**
	 * Runs the scenario at the size the arguments ask for.
	 * @param args nothing, or {@code smoke} for the tiny size
	 * @throws Exception on failure
	 */
	static void run(List<String> args) throws Exception {
		if (args.size() > 1 || (args.size() == 1 && !args.get(0).equals("smoke"))) {
			System.err.println("Usage: bench/run handover [smoke]");
			System.exit(2);
		}
		Sizes sizes = args.isEmpty() ? Sizes.full() : Sizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			run(RedisTarget.server(redis.url()), sizes);
		}
		System.exit(0);
	}

	private static void run(RedisTarget target, Sizes sizes) throws Exception {
		long started = System.nanoTime();
		try (ContenderSet admin = new ContenderSet(target, Set.of(ContenderSet.FLOOR), false)) {
			BenchMain.emit(true, "## Environment\n\n" + BenchEnvironment.describe(admin.redis()));
			PingFloor floor = (PingFloor) admin.get(ContenderSet.FLOOR);
			Path workDir = Files.createTempDirectory("distlock-bench-handover");
			Map<String, Stats> results = new LinkedHashMap<>();
			List<ForkedJvm> workers = new ArrayList<>();
			Histogram floorLatency = new Histogram(3);
			Histogram idleFloorLatency = new Histogram(3);
			boolean stamped = false;
			try {
				for (int w = 0; w < 2; w++) {
					workers.add(ForkedJvm.start("512m", HandOverWorker.class, target.argument(),
							String.join(",", CONTENDERS)));
				}
				for (ForkedJvm worker : workers) {
					stamped = worker.reply().equals("ready true");
				}
				Map<String, String> names = new LinkedHashMap<>();
				try (ContenderSet named = new ContenderSet(target, Set.copyOf(CONTENDERS), false)) {
					for (String id : CONTENDERS) {
						names.put(id, named.get(id).name());
					}
				}
				int[] blocks = { 0 };
				for (String id : CONTENDERS) {
					results.put(id, new Stats(names.get(id)));
					Stats warmup = new Stats(id);
					int calm = 0;
					for (int w = 0; w < sizes.maxWarmupBlocks() && calm < SETTLED_BLOCKS; w++) {
						long compiling = block(workers, id, sizes.warmupHandOvers(), workDir, blocks, warmup, floor,
								new Histogram(3), new Histogram(3));
						calm = (compiling < sizes.settledCompileMillis()) ? calm + 1 : 0;
					}
					results.get(id).warmupBlocks = warmup.blocks;
				}
				for (int round = 0; round < sizes.rounds(); round++) {
					for (String id : Rotation.forRound(CONTENDERS, round)) {
						block(workers, id, sizes.handOversPerBlock(), workDir, blocks, results.get(id), floor,
								floorLatency, idleFloorLatency);
					}
				}
			}
			finally {
				workers.forEach((worker) -> worker.send("quit"));
				workers.forEach(ForkedJvm::close);
			}
			Files.deleteIfExists(workDir);
			double floorNanos = floorLatency.getValueAtPercentile(50);
			double idleFloorNanos = idleFloorLatency.getValueAtPercentile(50);
			BenchMain.emit(true, "## Hand-over across processes: 2 JVMs × 1 thread, one lock passed back and forth, "
					+ HOLD_NANOS / 1_000_000.0 + " ms holds\n\n" + table(results.values(), floorNanos, idleFloorNanos)
					+ "\nFloor: 2×PING p50 measured in the harness JVM between the blocks, "
					+ MarkdownTable.micros(floorNanos) + " µs (p99 "
					+ MarkdownTable.micros(floorLatency.getValueAtPercentile(99)) + " µs); after idling "
					+ HOLD_NANOS / 1_000_000.0 + " ms first, as a waiter does, " + MarkdownTable.micros(idleFloorNanos)
					+ " µs (p99 " + MarkdownTable.micros(idleFloorLatency.getValueAtPercentile(99))
					+ " µs). The gap runs from the "
					+ "release call in one JVM to the first line of the next holder's section in the other; "
					+ "each worker asks for the lock again " + PAUSE_NANOS / 1000 + " µs after its release "
					+ "returned. Each contender was first warmed up in unmeasured blocks of " + sizes.warmupHandOvers()
					+ " hand-overs until the workers' JIT compilers worked less than " + sizes.settledCompileMillis()
					+ " ms in " + SETTLED_BLOCKS + " blocks in a row (at most " + sizes.maxWarmupBlocks()
					+ " blocks).\n");
			Stats distlock = results.get("distlock-client");
			if (stamped && distlock != null) {
				BenchMain.emit(true, "### Timeline of distlock's hand-over (medians)\n\n" + distlock.timeline());
			}
		}
		BenchMain.emit(true, "Run took " + Math.round((System.nanoTime() - started) / 1e9)
				+ " s; load average at the end: " + BenchEnvironment.loadAverage());
	}

	/**
	 * Runs one block of hand-overs of a contender and adds them to its stats, then
	 * measures the floors.
	 * @return how long the workers' JIT compilers worked during the block, in ms
	 */
	private static long block(List<ForkedJvm> workers, String id, int handOvers, Path workDir, int[] blocks,
			Stats stats, PingFloor floor, Histogram floorLatency, Histogram idleFloorLatency) throws Exception {
		int block = blocks[0]++;
		String lockKey = "bench:handover:" + id + ":" + block;
		long start = System.nanoTime() + START_DELAY_NANOS;
		int holdsEach = handOvers / 2 + 1;
		List<Path> files = new ArrayList<>();
		for (int w = 0; w < workers.size(); w++) {
			Path file = workDir.resolve("block-" + block + "-w" + w + ".txt");
			files.add(file);
			// The second worker starts halfway through the first one's first hold, so it
			// waits queued when the first hand-over comes.
			workers.get(w)
				.send(String.join(" ", "block", id, lockKey, Long.toString(start + w * HOLD_NANOS / 2),
						Integer.toString(holdsEach), Long.toString(HOLD_NANOS), Long.toString(PAUSE_NANOS),
						file.toString()));
		}
		long[] scriptsBefore = CommandStats.callsAndMicros(floor.redis(), "evalsha");
		long compiling = 0;
		for (ForkedJvm worker : workers) {
			String[] done = worker.reply().split(" ");
			compiling += (done.length > 2) ? Long.parseLong(done[2]) : 0;
		}
		long[] scriptsAfter = CommandStats.callsAndMicros(floor.redis(), "evalsha");
		stats.scriptCalls += scriptsAfter[0] - scriptsBefore[0];
		stats.scriptMicros += scriptsAfter[1] - scriptsBefore[1];
		List<long[]> holds = new ArrayList<>();
		for (int w = 0; w < files.size(); w++) {
			for (String line : Files.readAllLines(files.get(w))) {
				String[] fields = line.split(" ");
				long[] hold = new long[fields.length + 1];
				for (int f = 0; f < fields.length; f++) {
					hold[f] = Long.parseLong(fields[f]);
				}
				hold[fields.length] = w;
				holds.add(hold);
			}
			Files.delete(files.get(w));
		}
		Stats blockStats = new Stats(id);
		blockStats.add(new ArrayList<>(holds));
		stats.add(holds);
		stats.blocks++;
		stats.compileMillis += compiling;
		for (int i = 0; i < FLOOR_PAIRS_PER_BLOCK; i++) {
			long pairStart = System.nanoTime();
			floor.runLocked(lockKey, () -> {
			});
			floorLatency.recordValue(System.nanoTime() - pairStart);
		}
		for (int i = 0; i < IDLE_FLOOR_PAIRS_PER_BLOCK; i++) {
			ContendedWorker.parkUntil(System.nanoTime() + HOLD_NANOS);
			long pairStart = System.nanoTime();
			floor.runLocked(lockKey, () -> {
			});
			idleFloorLatency.recordValue(System.nanoTime() - pairStart);
		}
		System.err.printf("  handover %s block %d: %d holds, gap p50 %.1f µs, JIT compiling %d ms in the workers%n", id,
				block, holds.size(), blockStats.gaps.getValueAtPercentile(50) / 1000.0, compiling);
		return compiling;
	}

	static String table(Iterable<Stats> results, double floorNanos, double idleFloorNanos) {
		MarkdownTable table = new MarkdownTable("contender", "hand-overs across JVMs", "gap p50 µs", "gap p99 µs",
				"gap max µs", "gap p50 / floor", "gap p99 / floor", "gap p50 / floor after idling",
				"re-taken by the releaser", "overlaps", "scripts per hold", "µs in Redis per script", "warm-up blocks",
				"JIT ms per measured block");
		for (Stats stats : results) {
			Histogram gaps = stats.gaps;
			table.row(stats.contender, gaps.getTotalCount(), MarkdownTable.micros(gaps.getValueAtPercentile(50)),
					MarkdownTable.micros(gaps.getValueAtPercentile(99)), MarkdownTable.micros(gaps.getMaxValue()),
					MarkdownTable.number(gaps.getValueAtPercentile(50) / floorNanos, 2),
					MarkdownTable.number(gaps.getValueAtPercentile(99) / floorNanos, 2),
					MarkdownTable.number(gaps.getValueAtPercentile(50) / idleFloorNanos, 2), stats.retaken,
					stats.overlaps, MarkdownTable.number((double) stats.scriptCalls / Math.max(1, stats.holds), 2),
					MarkdownTable.number((double) stats.scriptMicros / Math.max(1, stats.scriptCalls), 1),
					stats.warmupBlocks,
					MarkdownTable.number((double) stats.compileMillis / Math.max(1, stats.blocks), 0));
		}
		return table.render();
	}

	/** What the holds of one contender's blocks show. */
	static final class Stats {

		/** The stages of a hand-over: name, and the fields it runs between. */
		private static final List<String[]> STAGES = List.of(
				new String[] { "release call → hold forgotten (releaser)", "releaseCalled", "releaseForgotten" },
				new String[] { "hold forgotten → release script sent (releaser)", "releaseForgotten", "releaseSent" },
				new String[] { "script sent → reply received (releaser)", "releaseSent", "releaseReplied" },
				new String[] { "reply received → release call returns (releaser)", "releaseReplied",
						"releaseReturned" },
				new String[] { "script sent → message received on the subscription thread", "releaseSent",
						"messageReceived" },
				new String[] { "message received → waiter woken", "messageReceived", "dispatched" },
				new String[] { "waiter woken → waiter thread running", "dispatched", "waiterRunning" },
				new String[] { "waiter running → grant accepted, wait closed", "waiterRunning", "granted" },
				new String[] { "grant accepted → hold registered", "granted", "registered" },
				new String[] { "hold registered → method's first line", "registered", "acquired" },
				new String[] { "whole gap: release call → method's first line", "releaseCalled", "acquired" });

		/** The stamps taken in the receiving JVM. */
		private static final Set<String> RECEIVING = Set.of("messageReceived", "dispatched", "waiterRunning", "granted",
				"registered", "acquired");

		private final String contender;

		private final Histogram gaps = new Histogram(3);

		private final List<Histogram> stages = new ArrayList<>();

		private long holds;

		private long retaken;

		private long overlaps;

		private long negativeStages;

		/** Scripts ({@code EVALSHA}) Redis ran during the blocks. */
		private long scriptCalls;

		/** µs Redis spent in those scripts. */
		private long scriptMicros;

		/** The blocks added. */
		private int blocks;

		/**
		 * The unmeasured blocks that warmed the contender up before its measured ones.
		 */
		private int warmupBlocks;

		/** How long the workers' JIT compilers worked during the blocks added, in ms. */
		private long compileMillis;

		Stats(String contender) {
			this.contender = contender;
			for (int i = 0; i < STAGES.size(); i++) {
				this.stages.add(new Histogram(3));
			}
		}

		void add(List<long[]> holds) {
			this.holds += holds.size();
			int acquired = HandOverWorker.FIELDS.indexOf("acquired");
			int releaseCalled = HandOverWorker.FIELDS.indexOf("releaseCalled");
			int worker = HandOverWorker.FIELDS.size();
			holds.sort(Comparator.comparingLong((long[] hold) -> hold[acquired]));
			for (int i = 1; i < holds.size(); i++) {
				long[] previous = holds.get(i - 1);
				long[] next = holds.get(i);
				if (next[acquired] < previous[releaseCalled]) {
					this.overlaps++;
					continue;
				}
				if (next[worker] == previous[worker]) {
					this.retaken++;
					continue;
				}
				this.gaps.recordValue(next[acquired] - previous[releaseCalled]);
				addStages(previous, next);
			}
		}

		/** Records the stages of one hand-over whose both sides were stamped. */
		private void addStages(long[] releaser, long[] receiver) {
			for (String[] stage : STAGES) {
				if (stamp(stage[1], releaser, receiver) == 0 || stamp(stage[2], releaser, receiver) == 0) {
					return;
				}
			}
			for (int s = 0; s < STAGES.size(); s++) {
				long from = stamp(STAGES.get(s)[1], releaser, receiver);
				long to = stamp(STAGES.get(s)[2], releaser, receiver);
				if (to - from < 0) {
					this.negativeStages++;
				}
				this.stages.get(s).recordValue(Math.max(0, to - from));
			}
		}

		private static long stamp(String name, long[] releaser, long[] receiver) {
			boolean receiving = RECEIVING.contains(name);
			return (receiving ? receiver : releaser)[field(name)];
		}

		private static int field(String name) {
			return HandOverWorker.FIELDS.indexOf(name);
		}

		String timeline() {
			MarkdownTable table = new MarkdownTable("stage", "p50 µs", "p99 µs");
			for (int s = 0; s < STAGES.size(); s++) {
				Histogram stage = this.stages.get(s);
				table.row(STAGES.get(s)[0], MarkdownTable.micros(stage.getValueAtPercentile(50)),
						MarkdownTable.micros(stage.getValueAtPercentile(99)));
			}
			return table.render() + "\n" + this.stages.get(0).getTotalCount() + " hand-overs stamped on both sides"
					+ ((this.negativeStages > 0) ? "; " + this.negativeStages + " stages ran backwards, counted as 0"
							: "")
					+ ". The releaser's reply and the receiver's message travel at the same time: the stages of "
					+ "the two sides overlap, and the receiver's stages add up to the gap.\n";
		}

	}

}
