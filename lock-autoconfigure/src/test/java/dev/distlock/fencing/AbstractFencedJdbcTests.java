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

package dev.distlock.fencing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.observation.FencedWriteMetrics;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Fenced writes to a real database, with holds of a real lock client: a newer write is
 * applied with its token, a stale one refused (and counted) and the row left as the next
 * holder wrote it, and concurrent insert-or-updates of a row that does not exist yet keep
 * the write of the highest token. Each test uses a table of its own.
 */
abstract class AbstractFencedJdbcTests {

	private FencingLocks locks;

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private SimpleMeterRegistry meters;

	private FencedJdbc fencedJdbc;

	private String table;

	/** Returns the database, created for one test. */
	protected abstract DataSource createDataSource();

	/** Releases the database of one test. */
	protected abstract void closeDataSource(DataSource dataSource);

	@BeforeEach
	void start() {
		this.locks = new FencingLocks();
		this.dataSource = createDataSource();
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.table = "fenced_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
		this.jdbc.execute("create table " + this.table
				+ " (id bigint primary key, owner varchar(64), balance bigint, fence bigint not null default 0)");
		this.meters = new SimpleMeterRegistry();
		this.fencedJdbc = new FencedJdbc(this.jdbc, new FencedWriteMetrics(this.meters));
	}

	@AfterEach
	void stop() {
		try {
			this.jdbc.execute("drop table " + this.table);
		}
		finally {
			closeDataSource(this.dataSource);
			this.locks.close();
		}
	}

	@Test
	void updateWritesTheRowWithTheTokenOfTheLockedMethod() {
		insertRow(1, "nobody", 0, 0);
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			int updated = this.fencedJdbc.update(this.table).set("owner", "first").where("id", 1).execute();
			assertThat(updated).isOne();
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("owner", "first").containsEntry("fence", hold.fencingToken());
	}

	@Test
	void holdWritesTheSameRowMoreThanOnce() {
		insertRow(1, "nobody", 100, 0);
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			for (int i = 0; i < 3; i++) {
				this.fencedJdbc.update(this.table)
					.setExpression("balance", "balance - :cents")
					.param("cents", 10)
					.where("id", 1)
					.execute();
			}
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("balance", 70L).containsEntry("fence", hold.fencingToken());
	}

	@Test
	void staleUpdateIsRefusedCountedAndLeavesTheNextHoldersWrite() {
		insertRow(1, "nobody", 0, 0);
		List<LockHandle> holds = this.locks.pausedHoldAndNext("account");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		assertThat(next.fencingToken()).isGreaterThan(paused.fencingToken());
		this.fencedJdbc.under(next).update(this.table).set("owner", "next").where("id", 1).execute();
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(
				() -> this.fencedJdbc.under(paused).update(this.table).set("owner", "paused").where("id", 1).execute())
			.satisfies((refusal) -> {
				assertThat(refusal.getStore()).isEqualTo("jdbc");
				assertThat(refusal.getFencingToken()).isEqualTo(paused.fencingToken());
				assertThat(refusal.getStoredFencingToken()).isEqualTo(next.fencingToken());
				assertThat(refusal.getLockKey()).isEqualTo(paused.key());
				assertThat(refusal.getLockName()).isEqualTo("account");
				assertThat(refusal.getMessage()).contains("table " + this.table + " row (id = 1)")
					.contains("token " + paused.fencingToken())
					.contains("token " + next.fencingToken());
			});
		assertThat(row(1)).containsEntry("owner", "next").containsEntry("fence", next.fencingToken());
		assertThat(refusals("account")).isEqualTo(1.0);
		next.release();
		paused.release();
	}

	@Test
	void updateOfAMissingRowSaysSo() {
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			assertThatExceptionOfType(EmptyResultDataAccessException.class)
				.isThrownBy(() -> this.fencedJdbc.update(this.table).set("owner", "first").where("id", 7).execute())
				.withMessageContaining("found no row")
				.withMessageContaining("upsert");
		}
		finally {
			hold.release();
		}
		assertThat(refusals("account")).isZero();
	}

	@Test
	void writeOutsideALockedMethodFailsAndWritesNothing() {
		insertRow(1, "nobody", 0, 0);
		assertThatIllegalStateException()
			.isThrownBy(() -> this.fencedJdbc.update(this.table).set("owner", "first").where("id", 1).execute())
			.withMessageContaining("No distributed lock is held on this thread")
			.withMessageContaining("@DistributedLock")
			.withMessageContaining("under(handle)");
		assertThat(row(1)).containsEntry("owner", "nobody");
	}

	@Test
	void writeAfterTheLeaseIsLostIsNotSent() {
		insertRow(1, "nobody", 0, 0);
		LockHandle hold = this.locks.client.lock(TestRedis.uniqueKey("account"),
				new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("account"));
		long fence = hold.fencingToken();
		await().atMost(Duration.ofSeconds(5)).until(hold::isLeaseLost);
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			assertThatExceptionOfType(LeaseLostBeforeWriteException.class)
				.isThrownBy(() -> this.fencedJdbc.update(this.table).set("owner", "late").where("id", 1).execute())
				.withMessageContaining("is lost")
				.withMessageContaining("table " + this.table + " row (id = 1)")
				.satisfies((ex) -> assertThat(ex.getFencingToken()).isEqualTo(fence));
		}
		assertThat(row(1)).containsEntry("owner", "nobody").containsEntry("fence", 0L);
	}

	@Test
	void writeOfAHoldThatAsksForItsTokenOnlyAfterLosingItsLeaseIsNotSent() {
		insertRow(1, "nobody", 0, 0);
		LockHandle hold = this.locks.client.lock(TestRedis.uniqueKey("account"),
				new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("late-token"));
		await().atMost(Duration.ofSeconds(5)).until(hold::isLeaseLost);
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			assertThatExceptionOfType(LeaseLostBeforeWriteException.class)
				.isThrownBy(() -> this.fencedJdbc.update(this.table).set("owner", "late").where("id", 1).execute())
				.withMessageContaining("no fencing token issued")
				.satisfies((ex) -> assertThat(ex.getFencingToken()).isZero());
		}
		assertThat(row(1)).containsEntry("owner", "nobody").containsEntry("fence", 0L);
	}

	@Test
	void lockOfSeveralKeysWritesTheTokenOfTheKeyItNames() {
		insertRow(1, "nobody", 0, 0);
		insertRow(2, "nobody", 0, 0);
		String from = TestRedis.uniqueKey("account");
		String to = TestRedis.uniqueKey("account");
		LockHandle hold = this.locks.client.lock(List.of(from, to), LockOptions.renewing(Duration.ofSeconds(10)));
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			assertThatIllegalStateException()
				.isThrownBy(() -> this.fencedJdbc.update(this.table).set("owner", "both").where("id", 1).execute())
				.withMessageContaining("several keys")
				.withMessageContaining(from)
				.withMessageContaining("forLockKey(key)");
			this.fencedJdbc.forLockKey(from).update(this.table).set("owner", "debited").where("id", 1).execute();
			this.fencedJdbc.forLockKey(to).update(this.table).set("owner", "credited").where("id", 2).execute();
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("owner", "debited").containsEntry("fence", hold.fencingToken(from));
		assertThat(row(2)).containsEntry("owner", "credited").containsEntry("fence", hold.fencingToken(to));
	}

	/**
	 * Statements run in the caller's transaction: a refusal thrown out of it rolls back
	 * the writes made before it.
	 */
	@Test
	void refusalRollsBackTheTransactionItIsThrownFrom() {
		insertRow(1, "nobody", 0, 0);
		insertRow(2, "nobody", 0, 0);
		List<LockHandle> holds = this.locks.pausedHoldAndNext("account");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		this.fencedJdbc.under(next).update(this.table).set("owner", "next").where("id", 2).execute();
		TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		FencedJdbc asPaused = this.fencedJdbc.under(paused);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> transaction.executeWithoutResult((status) -> {
				asPaused.update(this.table).set("owner", "paused").where("id", 1).execute();
				assertThat(this.jdbc.queryForObject("select owner from " + this.table + " where id = 1", String.class))
					.as("written in the transaction")
					.isEqualTo("paused");
				asPaused.update(this.table).set("owner", "paused").where("id", 2).execute();
			}));
		assertThat(row(1)).containsEntry("owner", "nobody").containsEntry("fence", 0L);
		assertThat(row(2)).containsEntry("owner", "next");
		next.release();
		paused.release();
	}

	@Test
	void upsertInsertsAMissingRowThenUpdatesIt() {
		LockHandle first = this.locks.hold("account");
		this.fencedJdbc.under(first).upsert(this.table).key("id", 5).set("owner", "first").set("balance", 1).execute();
		assertThat(row(5)).containsEntry("owner", "first")
			.containsEntry("balance", 1L)
			.containsEntry("fence", first.fencingToken());
		first.release();
		LockHandle second = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(second)) {
			this.fencedJdbc.upsert(this.table).key("id", 5).set("owner", "second").set("balance", 2).execute();
			this.fencedJdbc.upsert(this.table).key("id", 5).set("owner", "second again").set("balance", 3).execute();
		}
		finally {
			second.release();
		}
		assertThat(row(5)).containsEntry("owner", "second again")
			.containsEntry("balance", 3L)
			.containsEntry("fence", second.fencingToken());
	}

	@Test
	void staleUpsertIsRefusedAndCounted() {
		List<LockHandle> holds = this.locks.pausedHoldAndNext("account");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		this.fencedJdbc.under(next).upsert(this.table).key("id", 5).set("owner", "next").execute();
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(
				() -> this.fencedJdbc.under(paused).upsert(this.table).key("id", 5).set("owner", "paused").execute())
			.satisfies((refusal) -> assertThat(refusal.getStoredFencingToken()).isEqualTo(next.fencingToken()));
		assertThat(row(5)).containsEntry("owner", "next").containsEntry("fence", next.fencingToken());
		assertThat(refusals("account")).isEqualTo(1.0);
		next.release();
		paused.release();
	}

	/**
	 * Writers that hold different locks (so different tokens) upsert the same new row at
	 * once: each write is applied or refused as stale, none fails otherwise, the writer
	 * of the highest token is never refused, and the row ends with its value and token.
	 */
	@Test
	void concurrentUpsertsOfANewRowKeepTheWriteOfTheHighestToken() throws Exception {
		int writers = 6;
		ExecutorService executor = Executors.newFixedThreadPool(writers);
		try {
			for (int round = 0; round < 5; round++) {
				long id = 100 + round;
				List<LockHandle> holds = new ArrayList<>();
				for (int i = 0; i < writers; i++) {
					holds.add(this.locks.hold("writer"));
				}
				CyclicBarrier start = new CyclicBarrier(writers);
				List<Future<Boolean>> applied = new ArrayList<>();
				for (LockHandle hold : holds) {
					applied.add(executor.submit(() -> {
						start.await(10, TimeUnit.SECONDS);
						try {
							this.fencedJdbc.under(hold)
								.upsert(this.table)
								.key("id", id)
								.set("owner", "writer " + hold.fencingToken())
								.set("balance", hold.fencingToken())
								.execute();
							return true;
						}
						catch (StaleFencingTokenException ex) {
							return false;
						}
					}));
				}
				long highest = holds.stream().mapToLong(LockHandle::fencingToken).max().orElseThrow();
				for (int i = 0; i < writers; i++) {
					boolean wasApplied = applied.get(i).get(20, TimeUnit.SECONDS);
					if (holds.get(i).fencingToken() == highest) {
						assertThat(wasApplied).as("the write of the highest token").isTrue();
					}
				}
				assertThat(row(id)).containsEntry("owner", "writer " + highest)
					.containsEntry("balance", highest)
					.containsEntry("fence", highest);
				holds.forEach(LockHandle::release);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	private void insertRow(long id, String owner, long balance, long fence) {
		this.jdbc.update("insert into " + this.table + " (id, owner, balance, fence) values (?, ?, ?, ?)", id, owner,
				balance, fence);
	}

	private Map<String, Object> row(long id) {
		Map<String, Object> row = this.jdbc
			.queryForMap("select owner, balance, fence from " + this.table + " where id = ?", id);
		Map<String, Object> lowerCase = new java.util.HashMap<>();
		row.forEach((column, value) -> lowerCase.put(column.toLowerCase(java.util.Locale.ROOT),
				(value instanceof Number number) ? number.longValue() : value));
		return lowerCase;
	}

	private double refusals(String name) {
		var counter = this.meters.find(FencedWriteMetrics.REFUSED).tags("name", name, "store", "jdbc").counter();
		return (counter != null) ? counter.count() : 0;
	}

}
