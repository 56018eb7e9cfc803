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

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.distlock.DistributedLock;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock must wrap the transaction: taken before it begins, released after it commits,
 * or the next holder reads data the previous holder has not committed yet. Each call
 * records, from an after-commit callback, whether its lock key still existed in Redis at
 * that moment.
 */
class TransactionOrderingTests {

	@Test
	void lockIsHeldUntilAfterTheTransactionCommits() {
		runner(DefaultOrderTransactions.class).run((context) -> {
			QueueService queue = context.getBean(QueueService.class);
			queue.checkIn("f");
			assertThat(queue.lockHeldAtCommit()).containsExactly(true);
		});
	}

	@Test
	void transactionOrderedOutsideTheLockIsDetected() {
		runner(OuterTransactions.class).run((context) -> {
			QueueService queue = context.getBean(QueueService.class);
			queue.checkIn("f");
			assertThat(queue.lockHeldAtCommit()).as("the probe sees a lock released before commit")
				.containsExactly(false);
		});
	}

	@Test
	void concurrentCheckInsGetUniqueGapFreePositions() {
		runner(DefaultOrderTransactions.class).run((context) -> {
			QueueService queue = context.getBean(QueueService.class);
			Set<Integer> positions = ConcurrentHashMap.newKeySet();
			ConcurrentRunner.run(8, 25, (thread) -> assertThat(positions.add(queue.checkIn("m"))).isTrue());
			assertThat(positions).hasSize(200).allSatisfy((position) -> assertThat(position).isBetween(1, 200));
			assertThat(queue.lockHeldAtCommit()).hasSize(200).containsOnly(true);
		});
	}

	private ApplicationContextRunner runner(Class<?> transactions) {
		return LockTestContexts.withSharedRedis().withUserConfiguration(transactions, QueueConfig.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class DefaultOrderTransactions {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = Ordered.HIGHEST_PRECEDENCE)
	static class OuterTransactions {

	}

	@Configuration(proxyBeanMethods = false)
	static class QueueConfig {

		@Bean(destroyMethod = "shutdown")
		DataSource dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("queue-schema.sql")
				.build();
		}

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		QueueService queueService(DataSource dataSource, StringRedisTemplate redis) {
			return new QueueService(new JdbcTemplate(dataSource), redis, TestRedis.uniqueKey("queue"));
		}

	}

	static class QueueService {

		private final List<Boolean> lockHeldAtCommit = new CopyOnWriteArrayList<>();

		private final JdbcTemplate jdbc;

		private final StringRedisTemplate redis;

		private final String lockPrefix;

		QueueService(JdbcTemplate jdbc, StringRedisTemplate redis, String lockPrefix) {
			this.jdbc = jdbc;
			this.redis = redis;
			this.lockPrefix = lockPrefix;
		}

		public List<Boolean> lockHeldAtCommit() {
			return this.lockHeldAtCommit;
		}

		public String getLockPrefix() {
			return this.lockPrefix;
		}

		@DistributedLock(key = "#root.target.lockPrefix + ':' + #gender", waitTime = "1m")
		@Transactional
		public int checkIn(String gender) {
			Integer next = this.jdbc.queryForObject(
					"select coalesce(max(position), 0) + 1 from queue_entry where gender = ?", Integer.class, gender);
			this.jdbc.update("insert into queue_entry (gender, position) values (?, ?)", gender, next);
			String lockKey = this.lockPrefix + ":" + gender;
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					QueueService.this.lockHeldAtCommit.add(QueueService.this.redis.hasKey(lockKey));
				}
			});
			return next;
		}

	}

}
