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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

import org.HdrHistogram.Histogram;

import dev.distlock.benchmarks.SharedLockContender.Access;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * Runs the lock kinds' scenarios: {@code ./bench/run kinds [smoke]}. Starts its own
 * {@code redis-server} on a free loopback port and measures, in one run and alternating
 * in blocks, distlock's read-write lock against Redisson's {@code RReadWriteLock} under a
 * read-mostly load, and distlock's permits against Redisson's {@code RSemaphore} and
 * {@code RPermitExpirableSemaphore} ({@link SharedLoad}), with threads spread over worker
 * JVMs ({@link KindsScenario}).
 */
final class KindsBench {

	private KindsBench() {
	}

	/**
	 * Runs the scenarios at the size the arguments ask for.
	 * @param args nothing, or {@code smoke} for the tiny size
	 * @throws Exception on failure
	 */
	static void run(List<String> args) throws Exception {
		if (args.size() > 1 || (args.size() == 1 && !args.get(0).equals("smoke"))) {
			System.err.println("Usage: bench/run kinds [smoke]");
			System.exit(2);
		}
		KindsSizes sizes = args.isEmpty() ? KindsSizes.full() : KindsSizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			run(redis.url(), sizes, true);
		}
		System.exit(0);
	}

	static Map<SharedLoad, List<SharedHoldStats>> run(String redisUrl, KindsSizes sizes, boolean print)
			throws Exception {
		long start = System.nanoTime();
		RedisTarget target = RedisTarget.server(redisUrl);
		Map<SharedLoad, List<SharedHoldStats>> results;
		// No contender in this process: the workers measure, this one only counts.
		try (ContenderSet admin = new ContenderSet(target, Set.of(), false)) {
			BenchMain.emit(print, "## Environment\n\n" + BenchEnvironment.describe(admin.redis()));
			Path workDir = Files.createTempDirectory("distlock-bench-kinds");
			results = new KindsScenario(target, admin.redis(), sizes, workDir).run();
			Files.deleteIfExists(workDir);
		}
		String threads = sizes.workers() + " JVMs × " + sizes.threadsPerWorker() + " threads, "
				+ sizes.criticalSectionMicros() / 1000.0 + " ms under the lock";
		BenchMain.emit(print,
				"## Kinds 1. Read-mostly: one key, " + Math.round(sizes.readShare() * 100) + " % reads, " + threads
						+ "\n\n" + readMostlyTable(results.get(SharedLoad.READ_MOSTLY))
						+ sharingNote(results.get(SharedLoad.READ_MOSTLY), "readers", SharedHoldStats::maxReaders));
		BenchMain.emit(print,
				"## Kinds 2. Permits: one semaphore of " + sizes.permits() + " permits, " + threads + "\n\n"
						+ permitsTable(results.get(SharedLoad.PERMITS))
						+ sharingNote(results.get(SharedLoad.PERMITS), "holders", SharedHoldStats::maxHolders));
		BenchMain.emit(print, "Run took " + Math.round((System.nanoTime() - start) / 1e9)
				+ " s; load average at the end: " + BenchEnvironment.loadAverage());
		return results;
	}

	static String readMostlyTable(List<SharedHoldStats> results) {
		MarkdownTable table = new MarkdownTable("contender", "ops", "ops/s", "reads", "writes", "read p50 µs",
				"read p99 µs", "write p50 µs", "write p99 µs", "max readers at once", "violations", "torn reads",
				"lost increments", "min/max per thread");
		for (SharedHoldStats stats : results) {
			Histogram read = stats.latency(Access.READ);
			Histogram write = stats.latency(Access.WRITE);
			table.row(stats.contender(), stats.ops(), MarkdownTable.number(stats.opsPerSecond(), 0),
					read.getTotalCount(), write.getTotalCount(), MarkdownTable.micros(read.getValueAtPercentile(50)),
					MarkdownTable.micros(read.getValueAtPercentile(99)),
					MarkdownTable.micros(write.getValueAtPercentile(50)),
					MarkdownTable.micros(write.getValueAtPercentile(99)), stats.maxReaders(), stats.violations(),
					stats.tornReads(), stats.lostIncrements(), perThread(stats));
		}
		return table.render();
	}

	static String permitsTable(List<SharedHoldStats> results) {
		MarkdownTable table = new MarkdownTable("contender", "ops", "ops/s", "p50 µs", "p99 µs", "max ms",
				"permits busy", "max holders at once", "violations", "min/max per thread");
		for (SharedHoldStats stats : results) {
			Histogram latency = stats.latency(Access.PERMIT);
			table.row(stats.contender(), stats.ops(), MarkdownTable.number(stats.opsPerSecond(), 0),
					MarkdownTable.micros(latency.getValueAtPercentile(50)),
					MarkdownTable.micros(latency.getValueAtPercentile(99)),
					MarkdownTable.number(latency.getMaxValue() / 1e6, 1), MarkdownTable.number(stats.permitsBusy(), 2),
					stats.maxHolders(), stats.violations(), perThread(stats));
		}
		return table.render();
	}

	private static String perThread(SharedHoldStats stats) {
		return stats.minOpsPerHolder() + "/" + stats.maxOpsPerHolder() + " = "
				+ MarkdownTable.number((double) stats.minOpsPerHolder() / Math.max(1, stats.maxOpsPerHolder()), 2);
	}

	/**
	 * Says so when distlock never let two holders in at once: the build on the class path
	 * then took the shared access as an exclusive lock, and the row measures that.
	 */
	private static String sharingNote(List<SharedHoldStats> results, String holders,
			ToIntFunction<SharedHoldStats> most) {
		return results.stream()
			.filter((stats) -> stats.contender().equals(DistlockSharedLock.NAME) && most.applyAsInt(stats) <= 1)
			.findFirst()
			.map((stats) -> "\n" + stats.contender() + " never had two " + holders
					+ " at once: the distlock measured takes this access as an exclusive lock.\n")
			.orElse("");
	}

}
