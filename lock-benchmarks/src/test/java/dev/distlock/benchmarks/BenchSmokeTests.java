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
import java.util.Map;

import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;

import dev.distlock.benchmarks.BenchmarkCharts.Chart;
import dev.distlock.benchmarks.SharedLockContender.Access;
import dev.distlock.test.redis.NativeDeleteModule;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Runs every scenario at the smoke size to check that the harness works: rows for every
 * contender, no overlapping holds (no reader beside a writer, no more holders than
 * permits), no lost increments. Asserts nothing about time.
 */
class BenchSmokeTests {

	@Test
	void everyScenarioProducesRowsWithoutOverlapsOrLostIncrements() throws Exception {
		BenchSizes sizes = BenchSizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			BenchReport report = BenchMain.run(redis.url(), sizes, BenchMain.SCENARIOS, List.of("distlock-client"),
					false);
			assertThat(report.uncontended).hasSize(2 * ContenderSet.ALL.size())
				.allSatisfy((result) -> assertThat(result.latency().getTotalCount()).isEqualTo(sizes.measuredPairs()));
			assertThat(UncontendedScenario.table(report.uncontended)).contains(DistlockFactory.ANNOTATED_NAME);
			// Commands are the server's counters, which other clients'
			// keep-alive PINGs can raise by a little.
			assertThat(report.uncontended).filteredOn((result) -> result.contender().startsWith("blog"))
				.hasSize(2)
				.allSatisfy((result) -> {
					assertThat(result.commands().callsPerPair()).isCloseTo(4.0, within(0.1));
					assertThat(result.commands().roundTripsPerPair()).isCloseTo(2.0, within(0.1));
					assertThat(result.commands().breakdown()).startsWith("evalsha 1.00 (del 1.00, get 1.00)");
				});
			assertThat(report.uncontended).allSatisfy((result) -> {
				assertThat(result.commands().callsPerPair()).as(result.contender()).isGreaterThanOrEqualTo(2);
				assertThat(result.commands().roundTripsPerPair()).as(result.contender()).isGreaterThanOrEqualTo(2);
			});
			assertThat(report.contended).hasSize(ContenderSet.ALL.size() - 1).allSatisfy((stats) -> {
				assertThat(stats.holds()).as(stats.contender()).isPositive();
				assertThat(stats.overlaps()).as(stats.contender()).isZero();
				assertThat(stats.lostIncrements()).as(stats.contender()).isZero();
			});
			assertThat(ContendedScenario.table(report.contended, 100_000, 1_000_000)).contains("Redisson RLock");
			assertThat(report.manyKeys).hasSize(ContenderSet.ALL.size());
			for (ManyKeysScenario.Result result : report.manyKeys) {
				assertThat(result.latency().getTotalCount()).as(result.contender()).isPositive();
				assertThat(result.commands().callsPerPair()).as(result.contender() + ": calls per pair").isPositive();
				if (result.contender().startsWith("distlock")) {
					// distlock passes a lock between threads of one client without
					// Redis: a release that has a waiting thread sends nothing, and
					// that thread's acquire neither, so when two threads pick the
					// same key a pair costs fewer than the two round trips of an
					// uncontended one (1.63-1.68 over 20 keys). Over 1,000 keys few
					// pairs collide: well above one per pair, which a lock that
					// skipped Redis would not reach.
					assertThat(result.commands().roundTripsPerPair()).as(result.contender() + ": round trips per pair")
						.isGreaterThanOrEqualTo(1.0);
				}
				else {
					assertThat(result.commands().callsPerPair()).as(result.contender() + ": calls per pair")
						.isGreaterThanOrEqualTo(2);
					assertThat(result.commands().roundTripsPerPair()).as(result.contender() + ": round trips per pair")
						.isGreaterThanOrEqualTo(2);
				}
			}
			// Keys left after release are reported, not asserted: they are a finding, not
			// a harness failure.
			assertThat(report.held).singleElement().satisfies((result) -> {
				assertThat(Long.parseLong(result.get("keysHeld"))).isGreaterThanOrEqualTo(sizes.heldLocks());
				assertThat(result.get("keysLeft")).isNotNull();
			});
			assertThat(HeldLocksScenario.table(report.held, sizes.heldLocks())).contains(DistlockFactory.CLIENT_NAME);
			assertChartsOfEveryTable("## 1. Uncontended\n\n" + UncontendedScenario.table(report.uncontended) + "\n"
					+ UncontendedScenario.commandsTable(report.uncontended) + "\n## 2. Contended\n\n"
					+ ContendedScenario.table(report.contended, 100_000, 1_000_000) + "\n"
					+ ContendedScenario.commandsTable(report.contended) + "\n## 3. Many keys\n\n"
					+ ManyKeysScenario.table(report.manyKeys) + "\n" + ManyKeysScenario.commandsTable(report.manyKeys)
					+ "\n## 4. Held locks\n\n" + HeldLocksScenario.table(report.held, sizes.heldLocks()),
					"uncontended.png", "contended-throughput.png", "contended-gaps.png", "many-keys.png",
					"held-locks.png");
		}
	}

	@Test
	void onAServerWithDelexDistlocksUncontendedPairIsTwoPlainCommands() throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort(NativeDeleteModule.loadArguments())) {
			BenchReport report = BenchMain.run(redis.url(), BenchSizes.smoke(), List.of("uncontended"), List.of(),
					false);
			assertThat(report.uncontended).filteredOn((result) -> result.contender().startsWith("distlock"))
				.hasSize(4)
				.allSatisfy((result) -> {
					assertThat(result.commands().callsPerPair()).as(result.contender()).isCloseTo(2.0, within(0.1));
					assertThat(result.commands().breakdown()).as(result.contender())
						.contains("delex 1.00")
						.doesNotContain("evalsha");
				});
			assertThat(report.uncontended).filteredOn((result) -> result.contender().startsWith("blog"))
				.allSatisfy((result) -> assertThat(result.commands().breakdown()).contains("evalsha 1.00"));
		}
	}

	@Test
	void reactiveScenariosProduceRowsWithoutOverlapsOrLostIncrements() throws Exception {
		ReactiveSizes sizes = ReactiveSizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			List<ReactiveScenario.Result> results = ReactiveBench.run(redis.url(), sizes, false);
			// The floor is no lock: it runs only where no two operations share a key.
			assertThat(results).hasSize(3 * sizes.loads().size() - 1).allSatisfy((result) -> {
				String row = result.contender() + ", " + result.load();
				assertThat(result.latency().getTotalCount()).as(row).isPositive();
				assertThat(result.overlaps()).as(row).isZero();
				assertThat(result.lostIncrements()).as(row).isZero();
			});
			assertThat(results).filteredOn((result) -> result.load().isContended())
				.extracting(ReactiveScenario.Result::contender)
				.containsExactly(ReactiveContenderSet.DISTLOCK_NAME, RedissonReactiveLock.NAME);
			assertThat(ReactiveBench.table(results)).contains(ReactiveContenderSet.FLOOR_NAME);
			StringBuilder markdown = new StringBuilder();
			for (int i = 0; i < sizes.loads().size(); i++) {
				ReactiveLoad load = sizes.loads().get(i);
				markdown.append("## Reactive ").append(i + 1).append(". ").append(load.describe()).append("\n\n");
				markdown
					.append(ReactiveBench.table(results.stream().filter((result) -> result.load() == load).toList()));
			}
			assertChartsOfEveryTable(markdown.toString(), "reactive.png");
		}
	}

	@Test
	void kindsScenariosProduceRowsWithoutViolations() throws Exception {
		KindsSizes sizes = KindsSizes.smoke();
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			Map<SharedLoad, List<SharedHoldStats>> results = KindsBench.run(redis.url(), sizes, false);
			List<SharedHoldStats> readMostly = results.get(SharedLoad.READ_MOSTLY);
			assertThat(readMostly).extracting(SharedHoldStats::contender)
				.containsExactly(DistlockSharedLock.NAME, RedissonReadWriteLock.NAME);
			assertThat(readMostly).allSatisfy((stats) -> {
				assertThat(stats.latency(Access.READ).getTotalCount()).as(stats.contender()).isPositive();
				assertThat(stats.latency(Access.WRITE).getTotalCount()).as(stats.contender()).isPositive();
				assertThat(stats.violations()).as(stats.contender()).isZero();
				assertThat(stats.tornReads()).as(stats.contender()).isZero();
				assertThat(stats.lostIncrements()).as(stats.contender()).isZero();
			});
			List<SharedHoldStats> permits = results.get(SharedLoad.PERMITS);
			assertThat(permits).extracting(SharedHoldStats::contender)
				.containsExactly(DistlockSharedLock.NAME, RedissonSemaphore.NAME, RedissonExpirableSemaphore.NAME);
			assertThat(permits).allSatisfy((stats) -> {
				assertThat(stats.latency(Access.PERMIT).getTotalCount()).as(stats.contender()).isPositive();
				assertThat(stats.violations()).as(stats.contender()).isZero();
				assertThat(stats.maxHolders()).as(stats.contender()).isBetween(1, sizes.permits());
			});
			assertThat(KindsBench.readMostlyTable(readMostly)).contains(RedissonReadWriteLock.NAME);
			assertThat(KindsBench.permitsTable(permits)).contains(RedissonExpirableSemaphore.NAME);
			assertChartsOfEveryTable("## Kinds 1. Read-mostly\n\n" + KindsBench.readMostlyTable(readMostly)
					+ "\n## Kinds 2. Permits\n\n" + KindsBench.permitsTable(permits), "kinds-read-mostly.png",
					"kinds-permits.png");
		}
	}

	@Test
	void redLockScenariosProduceRowsForEveryContenderOnThreeAndFiveNodesWithoutOverlaps() throws Exception {
		RedLockBench.Sizes sizes = RedLockBench.Sizes.smoke();
		List<RedisServerProcess> servers = new ArrayList<>();
		try {
			for (int i = 0; i < 5; i++) {
				servers.add(RedisServerProcess.startOnFreePort());
			}
			RedLockBench.Report report = RedLockBench.run(servers.stream().map(RedisServerProcess::url).toList(), sizes,
					false);
			List<String> rows = List.of(RedLockBench.DISTLOCK_SINGLE + " 1", RedLockBench.REDISSON_SINGLE + " 1",
					RedLockBench.DISTLOCK_REDLOCK + " 3", RedLockBench.REDISSON_REDLOCK + " 3",
					RedLockBench.REDISSON_MULTILOCK + " 3", RedLockBench.DISTLOCK_REDLOCK + " 5",
					RedLockBench.REDISSON_REDLOCK + " 5", RedLockBench.REDISSON_MULTILOCK + " 5");
			assertThat(report.uncontended()).extracting((result) -> result.name() + " " + result.nodes())
				.containsExactlyElementsOf(rows);
			assertThat(report.uncontended())
				.allSatisfy((result) -> assertThat(result.latency().getTotalCount()).as(result.name())
					.isEqualTo(sizes.measuredPairs()));
			assertThat(report.contended()).extracting((result) -> result.name() + " " + result.nodes())
				.containsExactlyElementsOf(rows);
			assertThat(report.contended()).allSatisfy((result) -> {
				String row = result.name() + " on " + result.nodes();
				assertThat(result.holds()).as(row).isPositive();
				assertThat(result.overlaps()).as(row).isZero();
				assertThat(result.lostIncrements()).as(row).isZero();
			});
			assertThat(RedLockBench.uncontendedTable(report.uncontended())).contains(RedLockBench.REDISSON_REDLOCK);
			assertThat(RedLockBench.contendedTable(report.contended())).contains(RedLockBench.REDISSON_MULTILOCK);
			assertChartsOfEveryTable(
					"## RedLock 1. Uncontended\n\n" + RedLockBench.uncontendedTable(report.uncontended())
							+ "\n## RedLock 2. Contended\n\n" + RedLockBench.contendedTable(report.contended()),
					"redlock-uncontended.png", "redlock-contended.png");
		}
		finally {
			servers.forEach(RedisServerProcess::close);
		}
	}

	/**
	 * The tables the scenarios print are the ones {@link BenchmarkCharts} reads: a chart
	 * per scenario, every value it draws a number from the table.
	 */
	private static void assertChartsOfEveryTable(String markdown, String... charts) {
		List<Chart> drawn = BenchmarkCharts.charts(BenchmarkResults.parse(markdown));
		assertThat(drawn).extracting(Chart::fileName).containsExactly(charts);
		assertThat(drawn).allSatisfy((chart) -> {
			DefaultCategoryDataset dataset = chart.dataset();
			assertThat(dataset.getColumnCount()).as(chart.fileName()).isPositive();
			for (int row = 0; row < dataset.getRowCount(); row++) {
				for (int column = 0; column < dataset.getColumnCount(); column++) {
					Number value = dataset.getValue(row, column);
					if (value != null) {
						assertThat(value.doubleValue())
							.as("%s: %s of %s", chart.fileName(), dataset.getRowKey(row), dataset.getColumnKey(column))
							.isFinite();
					}
				}
			}
		});
	}

}
