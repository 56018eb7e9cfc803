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

package dev.distlock.aop;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockRelease;
import dev.distlock.TransactionBoundLocks;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A locked method that joins a transaction its caller began: the seed scenario of queue
 * positions handed out as {@code max + 1}, where the caller's transaction does more work
 * after the locked method returned. Two application contexts (two instances of the
 * service, each with its own lock client) share one Redis server and one database, H2 or
 * PostgreSQL on 127.0.0.1:5432; duplicates are counted in the database. Released when the
 * method returns (the control), the next holder reads the maximum before the previous
 * insert has committed and hands out the same position; released when the transaction
 * completes, never.
 */
class ReleaseAfterTransactionTests {

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private static final int THREADS_PER_INSTANCE = 3;

	private static final int CHECK_INS_PER_THREAD = 10;

	private static final int CHECK_INS = 2 * THREADS_PER_INSTANCE * CHECK_INS_PER_THREAD;

	@Test
	void releasedOnReturnHandsOutDuplicatesOnH2() throws Exception {
		assertThat(checkInConcurrently(h2(), "on-return")).as("duplicate positions").isPositive();
	}

	@Test
	void releasedAfterTransactionHandsOutNoDuplicatesOnH2() throws Exception {
		assertThat(checkInConcurrently(h2(), "after-transaction")).as("duplicate positions").isZero();
	}

	@Test
	void releasedOnReturnHandsOutDuplicatesOnPostgres() throws Exception {
		assertThat(checkInConcurrently(postgres(), "on-return")).as("duplicate positions").isPositive();
	}

	@Test
	void releasedAfterTransactionHandsOutNoDuplicatesOnPostgres() throws Exception {
		assertThat(checkInConcurrently(postgres(), "after-transaction")).as("duplicate positions").isZero();
	}

	@Test
	void annotationKeepsTheLockUntilTheCallersTransactionCommits() {
		transactionRunner(h2()).run((context) -> {
			CheckIns checkIns = context.getBean(CheckIns.class);
			Positions positions = context.getBean(Positions.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			checkIns.checkInKeptUntilCommit("f");
			assertThat(positions.lockHeldAtCommit()).containsExactly(true);
			assertThat(redis.hasKey(positions.getLockKey() + ":f")).as("released after the commit").isFalse();
			checkIns.checkIn("f");
			assertThat(positions.lockHeldAtCommit()).as("the property's on-return default")
				.containsExactly(true, false);
		});
	}

	@Test
	void lockTakenInCodeIsKeptUntilTheTransactionCommits() {
		transactionRunner(h2()).run((context) -> {
			CheckIns checkIns = context.getBean(CheckIns.class);
			Positions positions = context.getBean(Positions.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			assertThat(checkIns.checkInLockedInCode("f")).isEqualTo(1);
			assertThat(positions.lockHeldAtCommit()).containsExactly(true);
			assertThat(redis.hasKey(positions.getLockKey() + ":f")).as("released after the commit").isFalse();
		});
	}

	@Test
	void lockTakenInCodeOutsideATransactionIsReleasedAtOnce() {
		transactionRunner(h2()).run((context) -> {
			CheckIns checkIns = context.getBean(CheckIns.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			assertThat(checkIns.lockedInCode("f")).isEqualTo(1);
			assertThat(redis.hasKey(context.getBean(Positions.class).getLockKey() + ":f")).isFalse();
		});
	}

	@Test
	void lockKeptForTheTransactionIsReleasedOnRollback() {
		transactionRunner(h2()).run((context) -> {
			CheckIns checkIns = context.getBean(CheckIns.class);
			Positions positions = context.getBean(Positions.class);
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> checkIns.checkInThenFail("m",
					() -> assertThat(redis.hasKey(positions.getLockKey() + ":m")).as("held after the method returned")
						.isTrue()));
			assertThat(redis.hasKey(positions.getLockKey() + ":m")).as("released after the rollback").isFalse();
			assertThat(positions.count("m")).isZero();
		});
	}

	@Test
	void leaseLostBeforeTheCommitRollsTheTransactionBack() {
		transactionRunner(h2())
			.withPropertyValues("distlock.renewal.lease=900ms", "distlock.interrupt-on-lease-lost=true")
			.run((context) -> {
				CheckIns checkIns = context.getBean(CheckIns.class);
				Positions positions = context.getBean(Positions.class);
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				assertThatExceptionOfType(LockLeaseLostException.class)
					.isThrownBy(() -> checkIns.checkInKeptUntilCommit("x", () -> {
						redis.delete(positions.getLockKey() + ":x");
						LockHandle held = positions.lastHandle();
						await().atMost(Duration.ofSeconds(5)).until(held::isLeaseLost);
						assertThat(Thread.currentThread().isInterrupted())
							.as("interrupted after the locked method returned")
							.isFalse();
					}))
					.withMessageContaining(positions.getLockKey() + ":x")
					.withMessageContaining("rolled back");
				assertThat(positions.count("x")).as("rows committed").isZero();
			});
	}

	@Test
	void reactiveMethodReleasedAfterTransactionFailsAtStartup() {
		LockTestContexts.withSharedRedis().withUserConfiguration(ReactiveAfterTransaction.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidLockDefinitionException.class)
				.hasMessageContaining("release = AFTER_TRANSACTION")
				.hasMessageContaining("next(");
		});
	}

	/**
	 * Checks in from two instances at once, each with several threads, each check-in a
	 * transaction that takes a position through the locked method and then does the rest
	 * of its work; returns how many positions were handed out twice.
	 */
	private long checkInConcurrently(Database database, String release) throws Exception {
		AtomicReference<Long> duplicates = new AtomicReference<>();
		ApplicationContextRunner runner = transactionRunner(database).withPropertyValues("distlock.release=" + release);
		runner.run((first) -> runner.run((second) -> {
			List<CheckIns> instances = List.of(first.getBean(CheckIns.class), second.getBean(CheckIns.class));
			ConcurrentRunner.run(2 * THREADS_PER_INSTANCE, CHECK_INS_PER_THREAD,
					(thread) -> instances.get(thread % 2).checkIn("m"));
			Positions positions = first.getBean(Positions.class);
			assertThat(positions.count("m")).as("check-ins").isEqualTo(CHECK_INS);
			duplicates.set(positions.duplicates("m"));
		}));
		return duplicates.get();
	}

	private ApplicationContextRunner transactionRunner(Database database) {
		return LockTestContexts.withSharedRedis()
			.withBean("queueDatabase", Database.class, () -> database)
			.withPropertyValues("queue.lock-key=" + TestRedis.uniqueKey("queue"))
			.withUserConfiguration(QueueConfig.class);
	}

	private static Database h2() {
		return new Database("jdbc:h2:mem:queue-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa");
	}

	private static Database postgres() {
		Database database = new Database(POSTGRES_URL, "postgres");
		try (HikariDataSource dataSource = database.dataSource(); Connection connection = dataSource.getConnection()) {
			assertThat(connection.isValid(2)).isTrue();
		}
		catch (SQLException | RuntimeException ex) {
			throw new IllegalStateException("These tests need PostgreSQL on 127.0.0.1:5432 with a database 'test' "
					+ "that user 'postgres' reaches without a password (trust authentication): " + ex.getMessage(), ex);
		}
		return database;
	}

	/**
	 * One database shared by both instances, with a table no other test uses.
	 */
	record Database(String url, String user, String table) {

		Database(String url, String user) {
			this(url, user, "queue_entry_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
		}

		HikariDataSource dataSource() {
			HikariDataSource dataSource = new HikariDataSource();
			dataSource.setJdbcUrl(this.url);
			dataSource.setUsername(this.user);
			dataSource.setMaximumPoolSize(THREADS_PER_INSTANCE + 2);
			return dataSource;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class QueueConfig {

		@Bean(destroyMethod = "close")
		HikariDataSource dataSource(Database queueDatabase) {
			HikariDataSource dataSource = queueDatabase.dataSource();
			new JdbcTemplate(dataSource).execute("create table if not exists " + queueDatabase.table()
					+ " (id bigint generated by default as identity primary key, "
					+ "gender varchar(8) not null, position int not null)");
			return dataSource;
		}

		@Bean(destroyMethod = "drop")
		QueueTable queueTable(DataSource dataSource, Database queueDatabase) {
			return new QueueTable(new JdbcTemplate(dataSource), queueDatabase.table());
		}

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Positions positions(DataSource dataSource, Database queueDatabase, StringRedisTemplate redis,
				org.springframework.core.env.Environment environment) {
			return new Positions(new JdbcTemplate(dataSource), queueDatabase.table(), redis,
					environment.getRequiredProperty("queue.lock-key"));
		}

		@Bean
		CheckIns checkIns(Positions positions, LockClient lockClient) {
			return new CheckIns(positions, lockClient);
		}

	}

	/**
	 * Drops the test's table when an instance's context closes, once the test has counted
	 * its rows.
	 */
	record QueueTable(JdbcTemplate jdbc, String name) {

		void drop() {
			this.jdbc.execute("drop table if exists " + this.name);
		}

	}

	/**
	 * Hands out queue positions under a lock per gender, joining the caller's
	 * transaction.
	 */
	static class Positions {

		private final List<Boolean> lockHeldAtCommit = new CopyOnWriteArrayList<>();

		private final AtomicReference<LockHandle> lastHandle = new AtomicReference<>();

		private final JdbcTemplate jdbc;

		private final String table;

		private final StringRedisTemplate redis;

		private final String lockKey;

		Positions(JdbcTemplate jdbc, String table, StringRedisTemplate redis, String lockKey) {
			this.jdbc = jdbc;
			this.table = table;
			this.redis = redis;
			this.lockKey = lockKey;
		}

		public String getLockKey() {
			return this.lockKey;
		}

		public List<Boolean> lockHeldAtCommit() {
			return this.lockHeldAtCommit;
		}

		public LockHandle lastHandle() {
			return this.lastHandle.get();
		}

		@DistributedLock(key = "#root.target.lockKey + ':' + #gender", waitTime = "1m")
		public int next(String gender) {
			return take(gender);
		}

		@DistributedLock(key = "#root.target.lockKey + ':' + #gender", waitTime = "1m",
				release = LockRelease.AFTER_TRANSACTION)
		public int nextKeptUntilCommit(String gender) {
			return take(gender);
		}

		/** Takes a position under a lock its caller took. */
		public int nextUnlocked(String gender) {
			return take(gender);
		}

		private int take(String gender) {
			LockContext.current().ifPresent(this.lastHandle::set);
			Integer next = this.jdbc.queryForObject(
					"select coalesce(max(position), 0) + 1 from " + this.table + " where gender = ?", Integer.class,
					gender);
			this.jdbc.update("insert into " + this.table + " (gender, position) values (?, ?)", gender, next);
			String key = this.lockKey + ":" + gender;
			if (!TransactionSynchronizationManager.isSynchronizationActive()) {
				return next;
			}
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					Positions.this.lockHeldAtCommit.add(Positions.this.redis.hasKey(key));
				}
			});
			return next;
		}

		public long count(String gender) {
			return this.jdbc.queryForObject("select count(*) from " + this.table + " where gender = ?", Long.class,
					gender);
		}

		public long duplicates(String gender) {
			return this.jdbc.queryForObject(
					"select count(*) - count(distinct position) from " + this.table + " where gender = ?", Long.class,
					gender);
		}

	}

	/**
	 * Check-ins: a transaction that takes a position, then does the rest of its work
	 * before it commits.
	 */
	static class CheckIns {

		private final Positions positions;

		private final LockClient lockClient;

		CheckIns(Positions positions, LockClient lockClient) {
			this.positions = positions;
			this.lockClient = lockClient;
		}

		@Transactional
		public int checkInLockedInCode(String gender) {
			return lockedInCode(gender);
		}

		public int lockedInCode(String gender) {
			LockHandle lock = this.lockClient.lock(this.positions.getLockKey() + ":" + gender);
			try {
				return this.positions.nextUnlocked(gender);
			}
			finally {
				assertThat(TransactionBoundLocks.releaseAfterTransaction(lock))
					.isEqualTo(TransactionSynchronizationManager.isActualTransactionActive());
			}
		}

		@Transactional
		public int checkIn(String gender) {
			int position = this.positions.next(gender);
			restOfTheWork();
			return position;
		}

		@Transactional
		public int checkInKeptUntilCommit(String gender) {
			return checkInKeptUntilCommit(gender, () -> {
			});
		}

		@Transactional
		public int checkInKeptUntilCommit(String gender, Runnable beforeCommit) {
			int position = this.positions.nextKeptUntilCommit(gender);
			beforeCommit.run();
			return position;
		}

		@Transactional
		public int checkInThenFail(String gender, Runnable beforeFailing) {
			this.positions.nextKeptUntilCommit(gender);
			beforeFailing.run();
			throw new IllegalStateException("the room could not be assigned");
		}

		/** Stands for what the transaction does after taking its position. */
		private static void restOfTheWork() {
			try {
				Thread.sleep(15);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReactiveAfterTransaction {

		@Bean
		ReactivePositions reactivePositions() {
			return new ReactivePositions();
		}

	}

	static class ReactivePositions {

		@DistributedLock(key = "'queue'", release = LockRelease.AFTER_TRANSACTION)
		public Mono<Integer> next() {
			return Mono.just(1);
		}

	}

}
