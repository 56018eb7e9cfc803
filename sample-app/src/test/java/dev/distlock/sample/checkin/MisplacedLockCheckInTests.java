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
 * The load of {@link AbstractCheckInConcurrencyTests} with the lock deliberately
 * misplaced: the transaction advisor is ordered first
 * ({@code @EnableTransactionManagement(order =
 * HIGHEST_PRECEDENCE)}), so the lock is taken inside the transaction and released before
 * the commit. The next holder then reads the maximum position before the previous insert
 * is visible, and two students get the same number. This shows that the concurrency tests
 * can fail.
 * <p>
 * To make the race certain rather than likely, the first check-in of each gender pauses
 * before its commit until the second one has read the maximum position
 * ({@link PausingCheckInRepository}): both have read the same empty queue and both get
 * position 1.
 * <p>
 * The fencing check of {@link CheckInService} does not hide the race, and is not meant
 * to. It refuses a holder whose token is older than the last one written to the queue's
 * head: a holder that resumes after its lease ran out and a newer holder wrote. Here no
 * holder is stale: each one writes while it holds the lock, so the tokens reach the
 * queue's head in increasing order and every write is accepted (the second check-in's
 * write waits for the first one's row lock, then passes). The duplicate comes from
 * reading before the previous holder committed, which only the lock wrapping the commit
 * prevents.
 */
class MisplacedLockCheckInTests {

	private static final int PER_GENDER = 20;

	@Test
	void lockReleasedBeforeCommitGivesDuplicatePositions() throws Exception {
		FirstCommitHold hold = new FirstCommitHold();
		try (SampleInstances instances = TestCluster.start(2, RedisTestServers.shared(), TestDatabase.h2(),
				(builder) -> builder.sources(MisplacedLockConfiguration.class)
					.initializers((context) -> context.getBeanFactory().registerSingleton("firstCommitHold", hold)))) {
			CheckInLoad.Result result = CheckInLoad.run(instances, PER_GENDER, 24);
			assertThat(result.statuses()).containsOnly(201);
			assertThat(result.female()).hasSize(PER_GENDER).containsSubsequence(1, 1);
			assertThat(result.male()).hasSize(PER_GENDER).containsSubsequence(1, 1);
			assertThat(duplicates(result.female()) + duplicates(result.male())).isPositive();
			assertThat(fencesAtPositionOne(instances.bean(0, JdbcClient.class)))
				.as("both holders of position 1 wrote with their own, newest token, and the fence check accepted both")
				.doesNotHaveDuplicates()
				.hasSizeGreaterThanOrEqualTo(2);
		}
	}

	private static List<Long> fencesAtPositionOne(JdbcClient jdbc) {
		return jdbc.sql("select fence from check_in where gender = 'FEMALE' and queue_position = 1")
			.query(Long.class)
			.list();
	}

	private static long duplicates(List<Integer> positions) {
		return positions.size() - positions.stream().distinct().count();
	}

	/**
	 * Test-only configuration of both instances: transactions outside the lock, and the
	 * pausing repository. Not a {@code @Configuration}, so that the application's
	 * component scan never picks it up; it is added as a source.
	 */
	@EnableTransactionManagement(order = Ordered.HIGHEST_PRECEDENCE)
	static class MisplacedLockConfiguration {

		@Bean
		@Primary
		CheckInRepository pausingCheckInRepository(JdbcClient jdbc, FirstCommitHold firstCommitHold) {
			return new PausingCheckInRepository(jdbc, firstCommitHold);
		}

	}

}
