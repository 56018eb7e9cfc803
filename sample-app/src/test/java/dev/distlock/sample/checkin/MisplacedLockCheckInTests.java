package dev.distlock.sample.checkin;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.EnableTransactionManagement;

import dev.distlock.sample.demo.SampleInstances;
import dev.distlock.sample.support.TestCluster;
import dev.distlock.sample.support.TestDatabase;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load of {@link AbstractCheckInConcurrencyTests} with the lock deliberately misplaced: the
 * transaction advisor is ordered first ({@code @EnableTransactionManagement(order =
 * HIGHEST_PRECEDENCE)}), so the lock is taken inside the transaction and released before the
 * commit. The next holder then reads the maximum position before the previous insert is visible,
 * and two students get the same number. This shows that the concurrency tests can fail.
 * <p>
 * To make the race certain rather than likely, every transaction pauses before its commit until
 * another one of the same gender has inserted its row ({@link PausingCheckInRepository}). No
 * transaction of a gender can commit before its first pair meets, so that pair has read the same
 * empty queue and both hold position 1.
 */
class MisplacedLockCheckInTests {

	private static final int PER_GENDER = 20;

	@Test
	void lockReleasedBeforeCommitGivesDuplicatePositions() throws Exception {
		CommitBarriers barriers = new CommitBarriers();
		try (SampleInstances instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2(),
				(builder) -> builder.sources(MisplacedLockConfiguration.class)
					.initializers((context) -> context.getBeanFactory().registerSingleton("commitBarriers", barriers)))) {
			CheckInLoad.Result result = CheckInLoad.run(instances, PER_GENDER, 24);
			assertThat(result.statuses()).containsOnly(201);
			assertThat(result.female()).hasSize(PER_GENDER).containsSubsequence(1, 1);
			assertThat(result.male()).hasSize(PER_GENDER).containsSubsequence(1, 1);
			assertThat(duplicates(result.female()) + duplicates(result.male())).isPositive();
		}
	}

	private static long duplicates(List<Integer> positions) {
		return positions.size() - positions.stream().distinct().count();
	}

	/**
	 * Test-only configuration of both instances: transactions outside the lock, and the pausing
	 * repository. Not a {@code @Configuration}, so that the application's component scan never
	 * picks it up; it is added as a source.
	 */
	@EnableTransactionManagement(order = Ordered.HIGHEST_PRECEDENCE)
	static class MisplacedLockConfiguration {

		@Bean
		@Primary
		CheckInRepository pausingCheckInRepository(JdbcClient jdbc, CommitBarriers commitBarriers) {
			return new PausingCheckInRepository(jdbc, commitBarriers);
		}

	}

}
