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

package dev.distlock.autoconfigure.fencing;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.fencing.FencedJdbc;
import dev.distlock.fencing.FencedRedis;
import dev.distlock.fencing.FencedWriteListener;
import dev.distlock.observation.FencedWriteMetrics;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DistributedLockFencingAutoConfiguration}: fenced writes to the application's
 * database and Redis, through {@code @DistributedLock} methods, and nothing without
 * spring-jdbc, a data source, or distlock.
 */
class DistributedLockFencingAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
				DistributedLockFencingAutoConfiguration.class))
		.withPropertyValues("spring.datasource.generate-unique-name=true");

	@Test
	void lockedMethodWritesWithItsTokenThroughTheAutoConfiguredHelpers() {
		this.runner.withUserConfiguration(AccountsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(FencedJdbc.class).hasSingleBean(FencedRedis.class);
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			jdbc.execute(
					"create table account (id bigint primary key, owner varchar(32), fence bigint not null default 0)");
			Accounts accounts = context.getBean(Accounts.class);
			String key = TestRedis.uniqueKey("owner");
			long token = accounts.claim(1, "first", key);
			assertThat(jdbc.queryForMap("select owner, fence from account where id = 1"))
				.containsEntry("OWNER", "first")
				.containsEntry("FENCE", token);
			assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get(key)).isEqualTo("first");
			assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get(FencedRedis.fenceKey(key)))
				.isEqualTo(Long.toString(token));
			long next = accounts.claim(1, "second", key);
			assertThat(next).isGreaterThan(token);
			assertThat(jdbc.queryForObject("select owner from account where id = 1", String.class)).isEqualTo("second");
		});
	}

	@Test
	void refusalsAreCountedWithAMeterRegistry() {
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(FencedWriteMetrics.class);
			assertThat(context.getBeansOfType(FencedWriteListener.class)).hasSize(1);
		});
	}

	@Test
	void noMetersWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(FencedWriteMetrics.class)
			.hasSingleBean(FencedJdbc.class));
	}

	@Test
	void noFencedJdbcWithoutSpringJdbc() {
		this.runner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(FencedJdbc.class)
				.hasSingleBean(FencedRedis.class));
	}

	@Test
	void noFencedJdbcWithoutADataSource() {
		LockTestContexts.withSharedRedis()
			.withConfiguration(AutoConfigurations.of(DistributedLockFencingAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(FencedJdbc.class)
				.hasSingleBean(FencedRedis.class));
	}

	@Test
	void backsOffFromTheApplicationsOwnHelpers() {
		this.runner.withUserConfiguration(OwnHelpersConfiguration.class).run((context) -> {
			assertThat(context.getBean(FencedJdbc.class)).isSameAs(context.getBean("ownFencedJdbc"));
			assertThat(context.getBean(FencedRedis.class)).isSameAs(context.getBean("ownFencedRedis"));
		});
	}

	@Test
	void nothingWhenDistlockIsDisabled() {
		this.runner.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(FencedJdbc.class).doesNotHaveBean(FencedRedis.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class AccountsConfiguration {

		@Bean
		Accounts accounts(FencedJdbc fencedJdbc, FencedRedis fencedRedis) {
			return new Accounts(fencedJdbc, fencedRedis);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHelpersConfiguration {

		@Bean
		FencedJdbc ownFencedJdbc(JdbcTemplate jdbc) {
			return new FencedJdbc(jdbc, FencedWriteListener.NONE).withFenceColumn("version");
		}

		@Bean
		FencedRedis ownFencedRedis(StringRedisTemplate redis) {
			return new FencedRedis(redis, FencedWriteListener.NONE);
		}

	}

	static class Accounts {

		private final FencedJdbc fencedJdbc;

		private final FencedRedis fencedRedis;

		Accounts(FencedJdbc fencedJdbc, FencedRedis fencedRedis) {
			this.fencedJdbc = fencedJdbc;
			this.fencedRedis = fencedRedis;
		}

		@DistributedLock(key = "'lock:account:' + #id")
		public long claim(long id, String owner, String redisKey) {
			this.fencedJdbc.upsert("account").key("id", id).set("owner", owner).execute();
			this.fencedRedis.set(redisKey, owner);
			return LockContext.fencingToken();
		}

	}

}
