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

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sun.management.OperatingSystemMXBean;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Scenario 1: one thread, acquire + release pairs with an empty critical section, on the
 * same key every time and on a new key every time. Warm-up first, then the measured pairs
 * in blocks that alternate the contenders and the two key modes.
 */
final class UncontendedScenario {

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * One contender's figures in one key mode.
	 *
	 * @param contender the contender's name
	 * @param keyMode "same" or "distinct"
	 * @param latency nanoseconds per pair
	 * @param pairsPerSecond measured pairs divided by the time the blocks took
	 * @param callerCpuNanos CPU time of the calling thread per pair
	 * @param processCpuNanos CPU time of the whole JVM per pair (I/O threads, renewal,
	 * JIT and GC included), which a loaded machine inflates far less than latency
	 * @param commands the Redis commands of the measured pairs
	 */
	record Result(String contender, String keyMode, Histogram latency, double pairsPerSecond, double callerCpuNanos,
			double processCpuNanos, PairCommands commands) {
	}

	/** Pairs per contender and key mode that run under {@code MONITOR}, not timed. */
	static final int MONITORED_PAIRS = 200;

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

	private final List<Contender> contenders;

	private final BenchSizes sizes;

	private final BlockCommands blockCommands;

	private final PairCommands.@Nullable RoundTripCounter roundTrips;

	private long nextKey;

	/**
	 * Creates the scenario.
	 * @param contenders the contenders, in table order
	 * @param sizes the sizes
	 * @param blockCommands counts the commands Redis executes in each measured block
	 * @param roundTrips counts the commands the clients send in a pass under
	 * {@code MONITOR} after the measured blocks, or {@code null} for no such pass
	 */
	UncontendedScenario(List<Contender> contenders, BenchSizes sizes, BlockCommands blockCommands,
			PairCommands.@Nullable RoundTripCounter roundTrips) {
		this.contenders = contenders;
		this.sizes = sizes;
		this.blockCommands = blockCommands;
		this.roundTrips = roundTrips;
	}

	List<Result> run() {
		List<String> keyModes = List.of("same", "distinct");
		Map<String, Histogram> latencies = new LinkedHashMap<>();
		Map<String, Long> elapsed = new LinkedHashMap<>();
		Map<String, Long> callerCpu = new LinkedHashMap<>();
		Map<String, Long> processCpu = new LinkedHashMap<>();
		Map<String, PairCommands> commands = new LinkedHashMap<>();
		for (String keyMode : keyModes) {
			for (Contender contender : this.contenders) {
				latencies.put(id(contender, keyMode), new Histogram(3));
				commands.put(id(contender, keyMode), new PairCommands());
				elapsed.put(id(contender, keyMode), 0L);
				runPairs(contender, keyMode, this.sizes.warmupPairs(), new Histogram(3));
			}
		}
		System.gc();
		int perBlock = this.sizes.measuredPairs() / this.sizes.rounds();
		for (int round = 0; round < this.sizes.rounds(); round++) {
			for (String keyMode : keyModes) {
				for (Contender contender : Rotation.forRound(this.contenders, round)) {
					String id = id(contender, keyMode);
					this.blockCommands.before();
					long caller = this.threads.getCurrentThreadCpuTime();
					long process = this.os.getProcessCpuTime();
					long start = System.nanoTime();
					runPairs(contender, keyMode, perBlock, latencies.get(id));
					elapsed.merge(id, System.nanoTime() - start, Long::sum);
					callerCpu.merge(id, this.threads.getCurrentThreadCpuTime() - caller, Long::sum);
					processCpu.merge(id, this.os.getProcessCpuTime() - process, Long::sum);
					commands.get(id).addMeasured(this.blockCommands.after(contender.name()), perBlock);
				}
			}
		}
		if (this.roundTrips != null) {
			int monitored = Math.min(MONITORED_PAIRS, perBlock);
			for (String keyMode : keyModes) {
				for (Contender contender : this.contenders) {
					this.roundTrips.count(() -> {
						runPairs(contender, keyMode, monitored, new Histogram(3));
						return monitored;
					}, commands.get(id(contender, keyMode)));
				}
			}
		}
		List<Result> results = new ArrayList<>();
		for (String keyMode : keyModes) {
			for (Contender contender : this.contenders) {
				String id = id(contender, keyMode);
				Histogram latency = latencies.get(id);
				long pairs = latency.getTotalCount();
				results.add(new Result(contender.name(), keyMode, latency, pairs * 1e9 / elapsed.get(id),
						(double) callerCpu.get(id) / pairs, (double) processCpu.get(id) / pairs, commands.get(id)));
			}
		}
		return results;
	}

	private String id(Contender contender, String keyMode) {
		return this.contenders.indexOf(contender) + "/" + keyMode;
	}

	private void runPairs(Contender contender, String keyMode, int pairs, Histogram latency) {
		String prefix = "bench:s1:" + this.contenders.indexOf(contender) + ":";
		for (int i = 0; i < pairs; i++) {
			String key = keyMode.equals("same") ? prefix + "same" : prefix + (this.nextKey++);
			long start = System.nanoTime();
			contender.runLocked(key, NOTHING);
			latency.recordValue(System.nanoTime() - start);
		}
	}

	static String table(List<Result> results) {
		MarkdownTable table = new MarkdownTable("contender", "keys", "pairs", "p50 µs", "p99 µs", "pairs/s",
				"p50 / floor", "caller CPU µs/pair", "JVM CPU µs/pair", "Redis cmds/pair");
		for (Result result : results) {
			double floor = floor(results, result.keyMode()).latency().getValueAtPercentile(50);
			double p50 = result.latency().getValueAtPercentile(50);
			table.row(result.contender(), result.keyMode(), result.latency().getTotalCount(), MarkdownTable.micros(p50),
					MarkdownTable.micros(result.latency().getValueAtPercentile(99)),
					MarkdownTable.number(result.pairsPerSecond(), 0), MarkdownTable.number(p50 / floor, 2),
					MarkdownTable.micros(result.callerCpuNanos()), MarkdownTable.micros(result.processCpuNanos()),
					PairCommands.cell(result.commands().callsPerPair()));
		}
		MarkdownTable overhead = new MarkdownTable("keys", "client p50 µs", "annotated p50 µs", "overhead p50 µs",
				"overhead mean µs");
		for (String keyMode : List.of("same", "distinct")) {
			Histogram client = find(results, DistlockFactory.CLIENT_NAME, keyMode).latency();
			Histogram annotated = find(results, DistlockFactory.ANNOTATED_NAME, keyMode).latency();
			overhead.row(keyMode, MarkdownTable.micros(client.getValueAtPercentile(50)),
					MarkdownTable.micros(annotated.getValueAtPercentile(50)),
					MarkdownTable.micros(annotated.getValueAtPercentile(50) - client.getValueAtPercentile(50)),
					MarkdownTable.micros(annotated.getMean() - client.getMean()));
		}
		return table.render() + "\nAnnotated-method overhead over the programmatic client:\n\n" + overhead.render();
	}

	/**
	 * Renders the commands of every contender and key mode.
	 * @param results the results
	 * @return the table
	 */
	static String commandsTable(List<Result> results) {
		Map<String, PairCommands> rows = new LinkedHashMap<>();
		results.forEach((result) -> rows.put(
				result.contender() + ", " + result.keyMode() + " key" + (result.keyMode().equals("same") ? "" : "s"),
				result.commands()));
		return PairCommands.table(rows, "pair");
	}

	private static Result floor(List<Result> results, String keyMode) {
		return results.stream()
			.filter((result) -> PingFloor.isFloor(result.contender()) && result.keyMode().equals(keyMode))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No floor result for " + keyMode));
	}

	static Result find(List<Result> results, String contender, String keyMode) {
		return results.stream()
			.filter((result) -> result.contender().equals(contender) && result.keyMode().equals(keyMode))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No result for " + contender + " / " + keyMode));
	}

}
