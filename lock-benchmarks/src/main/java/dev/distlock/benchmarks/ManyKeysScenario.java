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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Scenario 3: many threads of one JVM, each taking the lock on a key picked at random out
 * of many, with an empty critical section; collisions are rare but happen. Blocks of a
 * fixed length alternate the contenders.
 */
final class ManyKeysScenario {

	private static final Runnable NOTHING = () -> {
	};

	/**
	 * One contender's figures.
	 *
	 * @param contender the contender's name
	 * @param latency nanoseconds per acquire + release pair
	 * @param pairsPerSecond pairs divided by the time the blocks took
	 * @param commands the Redis commands of the measured pairs
	 */
	record Result(String contender, Histogram latency, double pairsPerSecond, PairCommands commands) {
	}

	private final List<Contender> contenders;

	private final BenchSizes sizes;

	private final BlockCommands blockCommands;

	private final PairCommands.@Nullable RoundTripCounter roundTrips;

	/**
	 * Creates the scenario.
	 * @param contenders the contenders, in table order
	 * @param sizes the sizes
	 * @param blockCommands counts the commands Redis executes in each measured block
	 * @param roundTrips counts the commands the clients send in a block a quarter as long
	 * under {@code MONITOR} after the measured blocks, or {@code null} for no such block
	 */
	ManyKeysScenario(List<Contender> contenders, BenchSizes sizes, BlockCommands blockCommands,
			PairCommands.@Nullable RoundTripCounter roundTrips) {
		this.contenders = contenders;
		this.sizes = sizes;
		this.blockCommands = blockCommands;
		this.roundTrips = roundTrips;
	}

	List<Result> run() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(this.sizes.manyKeysThreads());
		try {
			Map<Contender, Histogram> latencies = new LinkedHashMap<>();
			Map<Contender, Long> elapsed = new LinkedHashMap<>();
			Map<Contender, PairCommands> commands = new LinkedHashMap<>();
			for (Contender contender : this.contenders) {
				block(pool, contender, this.sizes.manyKeysBlockMillis() / 2, new Histogram(3));
				latencies.put(contender, new Histogram(3));
				elapsed.put(contender, 0L);
				commands.put(contender, new PairCommands());
			}
			for (int round = 0; round < this.sizes.manyKeysRounds(); round++) {
				for (Contender contender : Rotation.forRound(this.contenders, round)) {
					Histogram blockLatency = new Histogram(3);
					this.blockCommands.before();
					long took = block(pool, contender, this.sizes.manyKeysBlockMillis(), blockLatency);
					commands.get(contender)
						.addMeasured(this.blockCommands.after(contender.name()), blockLatency.getTotalCount());
					latencies.get(contender).add(blockLatency);
					elapsed.merge(contender, took, Long::sum);
				}
			}
			if (this.roundTrips != null) {
				for (Contender contender : this.contenders) {
					this.roundTrips.count(() -> {
						Histogram monitored = new Histogram(3);
						block(pool, contender, Math.max(1, this.sizes.manyKeysBlockMillis() / 4), monitored);
						return monitored.getTotalCount();
					}, commands.get(contender));
				}
			}
			List<Result> results = new ArrayList<>();
			for (Contender contender : this.contenders) {
				Histogram latency = latencies.get(contender);
				results.add(new Result(contender.name(), latency,
						latency.getTotalCount() * 1e9 / elapsed.get(contender), commands.get(contender)));
			}
			return results;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private long block(ExecutorService pool, Contender contender, int millis, Histogram latency) throws Exception {
		String prefix = "bench:s3:" + this.contenders.indexOf(contender) + ":";
		long start = System.nanoTime() + 50_000_000L;
		long stop = start + millis * 1_000_000L;
		List<Future<Histogram>> threads = new ArrayList<>();
		for (int t = 0; t < this.sizes.manyKeysThreads(); t++) {
			threads.add(pool.submit(() -> {
				Histogram mine = new Histogram(3);
				ThreadLocalRandom random = ThreadLocalRandom.current();
				LockSupport.parkNanos(start - System.nanoTime());
				while (System.nanoTime() - stop < 0) {
					String key = prefix + random.nextInt(this.sizes.manyKeys());
					long begin = System.nanoTime();
					contender.runLocked(key, NOTHING);
					mine.recordValue(System.nanoTime() - begin);
				}
				return mine;
			}));
		}
		for (Future<Histogram> thread : threads) {
			latency.add(thread.get());
		}
		return System.nanoTime() - start;
	}

	static String table(List<Result> results) {
		double floor = results.stream()
			.filter((result) -> result.contender().equals(PingFloor.NAME))
			.findFirst()
			.map(Result::pairsPerSecond)
			.orElse(Double.NaN);
		MarkdownTable table = new MarkdownTable("contender", "pairs", "pairs/s", "share of floor's pairs/s", "p50 µs",
				"p99 µs", "max ms", "Redis cmds/pair");
		for (Result result : results) {
			table.row(result.contender(), result.latency().getTotalCount(),
					MarkdownTable.number(result.pairsPerSecond(), 0),
					MarkdownTable.number(result.pairsPerSecond() / floor, 2),
					MarkdownTable.micros(result.latency().getValueAtPercentile(50)),
					MarkdownTable.micros(result.latency().getValueAtPercentile(99)),
					MarkdownTable.number(result.latency().getMaxValue() / 1e6, 1),
					PairCommands.cell(result.commands().callsPerPair()));
		}
		return table.render();
	}

	/**
	 * Renders the commands of every contender.
	 * @param results the results
	 * @return the table
	 */
	static String commandsTable(List<Result> results) {
		Map<String, PairCommands> rows = new LinkedHashMap<>();
		results.forEach((result) -> rows.put(result.contender(), result.commands()));
		return PairCommands.table(rows, "pair");
	}

}
