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

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.support.TransactionTemplate;

import dev.distlock.LockContext;
import dev.distlock.LockHandle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The pattern of docs/fencing.md, section "JPA entities", against a real database with
 * Hibernate, Spring's {@link JpaTransactionManager} and holds of a real lock client: the
 * documented bulk update writes the entity with the hold's token, a stale holder's is
 * refused ({@link StaleFencingTokenException}) and the later holder's data kept, a
 * managed copy refreshed after the update does not write the old values back (the control
 * shows that an unrefreshed one does), and {@link FencedJdbc} runs in the JPA
 * transaction. Each test uses a table of its own.
 */
abstract class AbstractJpaFencingTests {

	/** The table name of {@link FencedAccount}, mapped to the test's own table. */
	static final String LOGICAL_TABLE = "fenced_account";

	private FencingLocks locks;

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private String table;

	private LocalContainerEntityManagerFactoryBean entityManagerFactoryBean;

	private EntityManager entityManager;

	private TransactionTemplate transactions;

	/** Returns the database, created for one test. */
	protected abstract DataSource createDataSource();

	/** Releases the database of one test. */
	protected abstract void closeDataSource(DataSource dataSource);

	@BeforeEach
	void start() {
		this.locks = new FencingLocks();
		this.dataSource = createDataSource();
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.table = "jpa_fenced_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
		this.jdbc.execute("create table " + this.table
				+ " (id bigint primary key, owner varchar(64) not null, balance bigint not null,"
				+ " fence bigint not null default 0)");
		this.entityManagerFactoryBean = new LocalContainerEntityManagerFactoryBean();
		this.entityManagerFactoryBean.setDataSource(this.dataSource);
		this.entityManagerFactoryBean.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
		this.entityManagerFactoryBean.setManagedTypes(PersistenceManagedTypes.of(FencedAccount.class.getName()));
		this.entityManagerFactoryBean.setPersistenceUnitName(this.table);
		this.entityManagerFactoryBean.setJpaPropertyMap(Map.of("hibernate.physical_naming_strategy",
				new TableOfThisTest(this.table), "hibernate.hbm2ddl.auto", "none"));
		this.entityManagerFactoryBean.afterPropertiesSet();
		EntityManagerFactory entityManagerFactory = this.entityManagerFactoryBean.getObject();
		assertThat(entityManagerFactory).as("the EntityManagerFactory of the test").isNotNull();
		// The transactional EntityManager an @PersistenceContext field gets.
		this.entityManager = SharedEntityManagerCreator.createSharedEntityManager(entityManagerFactory);
		this.transactions = new TransactionTemplate(new JpaTransactionManager(entityManagerFactory));
		this.transactions
			.executeWithoutResult((status) -> this.entityManager.persist(new FencedAccount(1, "nobody", 100)));
	}

	@AfterEach
	void stop() {
		try {
			this.entityManagerFactoryBean.destroy();
			this.jdbc.execute("drop table " + this.table);
		}
		finally {
			closeDataSource(this.dataSource);
			this.locks.close();
		}
	}

	/**
	 * The locked, transactional method of docs/fencing.md (there {@code @DistributedLock}
	 * and {@code @Transactional}; here the caller enters the hold's {@link LockContext}
	 * and a transaction), word for word.
	 */
	private void debit(long id, long cents) {
		long token = LockContext.fencingToken();
		int updated = this.entityManager.createQuery("""
				update Account a set a.balance = a.balance - :cents, a.fence = :token
				 where a.id = :id and a.fence <= :token""")
			.setParameter("cents", cents)
			.setParameter("token", token)
			.setParameter("id", id)
			.executeUpdate();
		if (updated == 0) {
			throw new StaleFencingTokenException("jpa", "Account " + id, token, null,
					LockContext.current().orElseThrow().key(), LockContext.current().orElseThrow().name());
		}
	}

	private void debitUnder(LockHandle hold, long id, long cents) {
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			this.transactions.executeWithoutResult((status) -> debit(id, cents));
		}
	}

	@Test
	void bulkUpdateWritesTheEntityWithTheTokenOfTheHold() {
		LockHandle hold = this.locks.hold("account");
		try {
			debitUnder(hold, 1, 30);
			debitUnder(hold, 1, 20);
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("balance", 50L).containsEntry("fence", hold.fencingToken());
		assertThat(hold.fencingToken()).isPositive();
	}

	@Test
	void staleHolderIsRefusedAndTheLaterHoldersWriteKept() {
		List<LockHandle> holds = this.locks.pausedHoldAndNext("account");
		LockHandle paused = holds.get(0);
		LockHandle next = holds.get(1);
		assertThat(next.fencingToken()).isGreaterThan(paused.fencingToken());
		debitUnder(next, 1, 10);
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> debitUnder(paused, 1, 40))
			.satisfies((refusal) -> {
				assertThat(refusal.getStore()).isEqualTo("jpa");
				assertThat(refusal.getTarget()).isEqualTo("Account 1");
				assertThat(refusal.getFencingToken()).isEqualTo(paused.fencingToken());
				assertThat(refusal.getLockKey()).isEqualTo(paused.key());
				assertThat(refusal.getLockName()).isEqualTo("account");
			});
		assertThat(row(1)).containsEntry("balance", 90L).containsEntry("fence", next.fencingToken());
		next.release();
		paused.release();
	}

	@Test
	void managedCopyRefreshedAfterTheBulkUpdateKeepsTheFencedWrite() {
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			this.transactions.executeWithoutResult((status) -> {
				FencedAccount account = this.entityManager.find(FencedAccount.class, 1L);
				debit(1, 30);
				this.entityManager.refresh(account);
				assertThat(account.getBalance()).isEqualTo(70);
				assertThat(account.getFence()).isEqualTo(hold.fencingToken());
				account.setOwner("renamed");
			});
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("owner", "renamed")
			.containsEntry("balance", 70L)
			.containsEntry("fence", hold.fencingToken());
	}

	/**
	 * The control of the test above: the pitfall the documentation names is real. Without
	 * the refresh, the flush of the managed copy writes its old balance and fence back,
	 * unfenced.
	 */
	@Test
	void managedCopyNotRefreshedWritesTheOldValuesBackUnfenced() {
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			this.transactions.executeWithoutResult((status) -> {
				FencedAccount account = this.entityManager.find(FencedAccount.class, 1L);
				debit(1, 30);
				account.setOwner("renamed");
			});
		}
		finally {
			hold.release();
		}
		assertThat(row(1)).containsEntry("owner", "renamed").containsEntry("balance", 100L).containsEntry("fence", 0L);
	}

	@Test
	void fencedJdbcRunsInTheJpaTransaction() {
		FencedJdbc fencedJdbc = new FencedJdbc(this.dataSource);
		LockHandle hold = this.locks.hold("account");
		try (LockContext.Scope scope = LockContext.enter(hold)) {
			this.transactions.executeWithoutResult((status) -> {
				this.entityManager.persist(new FencedAccount(2, "new", 50));
				this.entityManager.flush();
				// The row is not committed: only the JPA transaction's connection sees
				// it.
				assertThat(fencedJdbc.update(this.table).set("owner", "jdbc").where("id", 2).execute()).isOne();
				assertThat(this.entityManager.createQuery("select a.owner from Account a where a.id = 2", String.class)
					.getSingleResult()).isEqualTo("jdbc");
				status.setRollbackOnly();
			});
			this.transactions.executeWithoutResult((status) -> {
				assertThat(fencedJdbc.update(this.table).set("owner", "jdbc").where("id", 1).execute()).isOne();
			});
		}
		finally {
			hold.release();
		}
		assertThat(this.jdbc.queryForObject("select count(*) from " + this.table + " where id = 2", Long.class))
			.as("the JPA insert and the FencedJdbc update, rolled back together")
			.isZero();
		assertThat(row(1)).containsEntry("owner", "jdbc").containsEntry("fence", hold.fencingToken());
	}

	private Map<String, Object> row(long id) {
		Map<String, Object> row = this.jdbc
			.queryForMap("select owner, balance, fence from " + this.table + " where id = ?", id);
		Map<String, Object> lowerCase = new HashMap<>();
		row.forEach((column, value) -> lowerCase.put(column.toLowerCase(Locale.ROOT),
				(value instanceof Number number) ? number.longValue() : value));
		return lowerCase;
	}

	/** Maps the table of {@link FencedAccount} to the one created for the test. */
	private static final class TableOfThisTest extends PhysicalNamingStrategyStandardImpl {

		private final String table;

		TableOfThisTest(String table) {
			this.table = table;
		}

		@Override
		public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment jdbcEnvironment) {
			if (logicalName.getText().equalsIgnoreCase(LOGICAL_TABLE)) {
				return Identifier.toIdentifier(this.table);
			}
			return super.toPhysicalTableName(logicalName, jdbcEnvironment);
		}

	}

}
