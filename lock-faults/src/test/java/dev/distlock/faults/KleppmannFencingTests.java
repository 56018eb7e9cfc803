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

package dev.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, item 6: Kleppmann's case end to end. Holder A (a worker JVM) holds a lock
 * with a 1 s fixed lease and writes the data the lock protects, a PostgreSQL row and a
 * Redis key: its writes pass its lease check and are sent, then held back in the network
 * (a {@link FaultProxy} in front of each store) while A is paused ({@code SIGSTOP}) past
 * its lease. B (another worker JVM) takes the lock and writes both directly. A is
 * continued and its writes arrive. Through {@code FencedJdbc} and {@code FencedRedis},
 * B's data stays and A is told with a {@code StaleFencingTokenException}; the control,
 * with a plain {@code UPDATE} and {@code SET}, loses B's writes.
 * <p>
 * PostgreSQL on {@code 127.0.0.1:5432}, database {@code test}, user {@code postgres}
 * (trust), as {@code PostgresFencedJdbcTests}; a table of this run's own.
 */
class KleppmannFencingTests {

	private static final String POSTGRES = System.getProperty("distlock.test.postgres.url",
			"jdbc:postgresql://127.0.0.1:5432/test");

	private static final long LEASE_MILLIS = 1000;

	/**
	 * How long A's writes are held back: past A's lease, and B's acquisition and writes.
	 */
	private static final long HELD_MILLIS = 6000;

	private static final String TABLE = "kleppmann_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private static RedisNode locks;

	private static RedisNode data;

	private static FaultProxy postgresProxy;

	private static FaultProxy dataProxy;

	private static JdbcTemplate jdbc;

	private static WorkerJvm holderA;

	private static WorkerJvm holderB;

	private static int runs;

	@BeforeAll
	static void start() {
		jdbc = new JdbcTemplate(new DriverManagerDataSource(url(5432)));
		jdbc.execute("create table " + TABLE
				+ " (id bigint primary key, val varchar(40) not null, fence bigint not null default 0)");
		locks = RedisNode.start(Persistence.NONE);
		data = RedisNode.start(Persistence.NONE);
		postgresProxy = FaultProxy.start(5432);
		dataProxy = FaultProxy.start(data.port());
		List<String> properties = LockApps.properties(locks.port(), "spring.data.redis.timeout=2s");
		holderA = WorkerJvm.start("A", properties);
		holderB = WorkerJvm.start("B", properties);
	}

	@AfterAll
	static void stop() {
		holderB.close();
		holderA.close();
		dataProxy.close();
		postgresProxy.close();
		data.close();
		locks.close();
		jdbc.execute("drop table if exists " + TABLE);
	}

	@Test
	void pausedHolderPastItsLeaseIsRefusedByTheFencedStoresAndTheNextHoldersDataStays() {
		Outcome outcome = runPausedHolder("fenced");
		Figures.record("Kleppmann's case, fenced",
				"A token %d paused past its %d ms lease, B token %d wrote; A's writes arrived after: "
						+ "PostgreSQL '%s' (row keeps '%s', fence %d), Redis '%s' (key keeps '%s')",
				outcome.tokenA(), LEASE_MILLIS, outcome.tokenB(), outcome.jdbcReplyA(), outcome.row().get("val"),
				outcome.row().get("fence"), outcome.redisReplyA(), outcome.redisValue());
		assertThat(outcome.bWroteBeforeAArrived()).as("B wrote before A's held writes were forwarded").isTrue();
		assertThat(outcome.tokenB()).isGreaterThan(outcome.tokenA());
		assertThat(outcome.jdbcReplyA())
			.startsWith("refused StaleFencingTokenException token=" + outcome.tokenA() + " stored=" + outcome.tokenB());
		assertThat(outcome.redisReplyA())
			.startsWith("refused StaleFencingTokenException token=" + outcome.tokenA() + " stored=" + outcome.tokenB());
		assertThat(outcome.row()).containsEntry("val", outcome.valueB()).containsEntry("fence", outcome.tokenB());
		assertThat(outcome.redisValue()).isEqualTo(outcome.valueB());
		assertThat(outcome.releasedA()).startsWith("leaseLost=true");
	}

	@Test
	void controlPausedHolderPastItsLeaseWithoutTheFenceOverwritesTheNextHoldersData() {
		Outcome outcome = runPausedHolder("plain");
		Figures.record("Kleppmann's case, control without the fence",
				"A token %d paused past its %d ms lease, B token %d wrote; A's plain UPDATE '%s' and SET '%s' "
						+ "arrived after: row holds '%s', key holds '%s' (B's writes lost)",
				outcome.tokenA(), LEASE_MILLIS, outcome.tokenB(), outcome.jdbcReplyA(), outcome.redisReplyA(),
				outcome.row().get("val"), outcome.redisValue());
		assertThat(outcome.bWroteBeforeAArrived()).as("B wrote before A's held writes were forwarded").isTrue();
		assertThat(outcome.jdbcReplyA()).isEqualTo("ok");
		assertThat(outcome.redisReplyA()).isEqualTo("ok");
		assertThat(outcome.row()).containsEntry("val", outcome.valueA());
		assertThat(outcome.redisValue()).isEqualTo(outcome.valueA());
	}

	private Outcome runPausedHolder(String mode) {
		int run = runs++;
		String lockKey = "lock:kleppmann:" + UUID.randomUUID();
		String dataKey = "kleppmann:" + UUID.randomUUID();
		long rowId = run + 1;
		String valueA = "A-" + mode + "-" + run;
		String valueB = "B-" + mode + "-" + run;
		jdbc.update("insert into " + TABLE + " (id, val) values (?, 'initial')", rowId);
		String a = "a" + run;
		String b = "b" + run;
		holderA.send("fenced-hold " + a + " " + lockKey + " " + LEASE_MILLIS + " 0");
		long tokenA = Long.parseLong(holderA.await("acquired " + a, Duration.ofSeconds(5))[2]);
		ReplyDrop heldRow = postgresProxy.holdNextRequest(TABLE, HELD_MILLIS);
		ReplyDrop heldKey = dataProxy.holdNextRequest(dataKey, HELD_MILLIS);
		holderA.send("fenced-write " + a + " " + mode + " jdbc " + url(postgresProxy.port()) + " " + TABLE + " " + rowId
				+ " " + valueA);
		holderA.send("fenced-write " + a + " " + mode + " redis " + dataProxy.port() + " " + dataKey + " " + valueA);
		// Both writes passed A's lease check and were sent: they are in the network now.
		assertThat(heldRow.await(Duration.ofSeconds(5))).as("A's UPDATE reached the proxy").isTrue();
		assertThat(heldKey.await(Duration.ofSeconds(5))).as("A's Redis write reached the proxy").isTrue();
		long forwarded = Math.min(heldRow.firedNanos(), heldKey.firedNanos()) + HELD_MILLIS * 1_000_000;
		holderA.pause();
		long tokenB;
		long bWrote;
		try {
			holderB.send("fenced-hold " + b + " " + lockKey + " 5000 8000");
			tokenB = Long.parseLong(holderB.await("acquired " + b, Duration.ofSeconds(8))[2]);
			holderB.send(
					"fenced-write " + b + " " + mode + " jdbc " + url(5432) + " " + TABLE + " " + rowId + " " + valueB);
			holderB.send("fenced-write " + b + " " + mode + " redis " + data.port() + " " + dataKey + " " + valueB);
			assertThat(holderB.await("wrote " + b + " jdbc", Duration.ofSeconds(5))[3]).isEqualTo("ok");
			assertThat(holderB.await("wrote " + b + " redis", Duration.ofSeconds(5))[3]).isEqualTo("ok");
			bWrote = System.nanoTime();
		}
		finally {
			holderA.resume();
		}
		String jdbcReplyA = rest(holderA.await("wrote " + a + " jdbc", Duration.ofMillis(HELD_MILLIS + 10_000)));
		String redisReplyA = rest(holderA.await("wrote " + a + " redis", Duration.ofMillis(HELD_MILLIS + 10_000)));
		holderA.send("fenced-release " + a);
		String releasedA = rest(holderA.await("released " + a, Duration.ofSeconds(5)));
		holderB.send("fenced-release " + b);
		holderB.await("released " + b, Duration.ofSeconds(5));
		Map<String, Object> row = jdbc.queryForMap("select val, fence from " + TABLE + " where id = ?", rowId);
		String redisValue = (String) Resp.call(data.port(), "GET", dataKey);
		return new Outcome(tokenA, tokenB, valueA, valueB, jdbcReplyA, redisReplyA, releasedA,
				Map.of("val", row.get("val"), "fence", ((Number) row.get("fence")).longValue()), redisValue,
				bWrote < forwarded);
	}

	private static String url(int port) {
		return POSTGRES.replace(":5432/", ":" + port + "/")
				+ (POSTGRES.contains("user=") ? "" : (POSTGRES.contains("?") ? "&" : "?") + "user=postgres");
	}

	/** The words of a reply after {@code wrote <id> <store>} or {@code released <id>}. */
	private static String rest(String[] reply) {
		int from = reply[0].equals("wrote") ? 3 : 2;
		return String.join(" ", List.of(reply).subList(from, reply.length));
	}

	private record Outcome(long tokenA, long tokenB, String valueA, String valueB, String jdbcReplyA,
			String redisReplyA, String releasedA, Map<String, Object> row, String redisValue,
			boolean bWroteBeforeAArrived) {

	}

}
