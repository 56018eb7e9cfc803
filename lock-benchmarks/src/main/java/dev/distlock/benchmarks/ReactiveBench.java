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
import java.util.List;

import org.HdrHistogram.Histogram;

import dev.distlock.test.redis.RedisServerProcess;

/**
 * Runs the reactive scenarios: {@code ./bench/run reactive [smoke]}. Starts its own
 * {@code redis-server} on a free loopback port and measures, in one run and alternating
 * in blocks, distlock's {@code ReactiveLockClient} against Redisson's
 * {@code RLockReactive} (and a floor of two reactive {@code PING}s) under each
 * {@link ReactiveLoad} of {@link ReactiveSizes}.
 */
final class ReactiveBench {

	private ReactiveBench() {
	}

	/**
	 * Runs the reactive scenarios at the size the arguments ask for.
	 * @param args nothing, or {@code smoke} for the tiny size
	 * @throws Exception on failure
	 */
	static void run(List<String> args) throws Exception {
		if (args.size() > 1 || (args.size() == 1 && !args.get(0).equals("smoke"))) {
			System.err.println("Usage: bench/run reactive [smoke]");
			System.exit(2);
		}
		ReactiveSizes sizes = args.isEmpty() ? ReactiveSizes.full() : ReactiveSizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			run(redis.url(), sizes, true);
		}
		System.exit(0);
	}

	static List<ReactiveScenario.Result> run(String redisUrl, ReactiveSizes sizes, boolean print) {
		long start = System.nanoTime();
		List<ReactiveScenario.Result> results = new ArrayList<>();
		try (ReactiveContenderSet set = new ReactiveContenderSet(RedisTarget.server(redisUrl))) {
			BenchMain.emit(print, "## Environment\n\n" + BenchEnvironment.describe(set.redis()));
			ReactiveScenario scenario = new ReactiveScenario(set.contenders(), set.reactiveRedis(), sizes);
			for (int i = 0; i < sizes.loads().size(); i++) {
				ReactiveLoad load = sizes.loads().get(i);
				System.err.println("Running reactive: " + load.describe() + " ...");
				List<ReactiveScenario.Result> loadResults = scenario.run(load, "bench:r" + i + ":");
				results.addAll(loadResults);
				BenchMain.emit(print, "## Reactive " + (i + 1) + ". " + load.describe() + "\n\n" + table(loadResults));
			}
		}
		BenchMain.emit(print, "Run took " + Math.round((System.nanoTime() - start) / 1e9)
				+ " s; load average at the end: " + BenchEnvironment.loadAverage());
		return results;
	}

	static String table(List<ReactiveScenario.Result> results) {
		double floor = results.stream()
			.filter((result) -> result.contender().equals(ReactiveContenderSet.FLOOR_NAME))
			.mapToDouble((result) -> result.latency().getValueAtPercentile(50))
			.findFirst()
			.orElse(Double.NaN);
		MarkdownTable table = new MarkdownTable("contender", "ops", "ops/s", "p50 µs", "p99 µs", "max ms",
				"p50 / floor", "share in work", "JVM CPU µs/op", "overlaps", "lost increments");
		for (ReactiveScenario.Result result : results) {
			Histogram latency = result.latency();
			double p50 = latency.getValueAtPercentile(50);
			table.row(result.contender(), latency.getTotalCount(), MarkdownTable.number(result.opsPerSecond(), 0),
					MarkdownTable.micros(p50), MarkdownTable.micros(latency.getValueAtPercentile(99)),
					MarkdownTable.number(latency.getMaxValue() / 1e6, 1),
					Double.isNaN(floor) ? "–" : MarkdownTable.number(p50 / floor, 2),
					MarkdownTable.number(result.heldShare(), 2), MarkdownTable.micros(result.processCpuNanos()),
					result.overlaps(), result.lostIncrements());
		}
		return table.render();
	}

}
