package dev.distlock.benchmarks;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.distlock.benchmarks.SharedLockContender.Access;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

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
			assertThat(report.contended).hasSize(ContenderSet.ALL.size() - 1).allSatisfy((stats) -> {
				assertThat(stats.holds()).as(stats.contender()).isPositive();
				assertThat(stats.overlaps()).as(stats.contender()).isZero();
				assertThat(stats.lostIncrements()).as(stats.contender()).isZero();
			});
			assertThat(ContendedScenario.table(report.contended, 100_000, 1_000_000)).contains("Redisson RLock");
			assertThat(report.manyKeys).hasSize(ContenderSet.ALL.size())
				.allSatisfy((result) -> assertThat(result.latency().getTotalCount()).isPositive());
			// Keys left after release are reported, not asserted: they are a finding, not
			// a harness failure.
			assertThat(report.held).singleElement().satisfies((result) -> {
				assertThat(Long.parseLong(result.get("keysHeld"))).isGreaterThanOrEqualTo(sizes.heldLocks());
				assertThat(result.get("keysLeft")).isNotNull();
			});
			assertThat(HeldLocksScenario.table(report.held, sizes.heldLocks())).contains(DistlockFactory.CLIENT_NAME);
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
		}
	}

}
