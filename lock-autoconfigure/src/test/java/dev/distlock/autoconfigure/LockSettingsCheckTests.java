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

package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A name under {@code distlock.locks} must name a lock: one of a
 * {@link DistributedLock @DistributedLock} method, of a bean created at startup or not,
 * or one marked {@code programmatic}; else startup fails naming it and the known names.
 * The lock client must apply what is configured.
 */
class LockSettingsCheckTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(LockedConfig.class);

	@Test
	void unknownNameFailsStartupNamingItAndTheKnownNames() {
		this.runner.withPropertyValues("distlock.locks.stok.wait-time=0", "distlock.locks.stock.wait-time=0")
			.run((context) -> assertConfigurationFailure(context,
					"No @DistributedLock method has the lock name "
							+ "\"stok\" configured under distlock.locks; the @DistributedLock methods have the names "
							+ "\"Locked.unnamed\", \"stock\". Correct the name under distlock.locks (a name with dots "
							+ "goes in brackets, as in distlock.locks[StockService.decrement]), or, for a lock "
							+ "taken only in code with LockClient.defaultOptions(name), set "
							+ "distlock.locks.<name>.programmatic=true."));
	}

	@Test
	void everyUnknownNameIsReported() {
		LockTestContexts.withSharedRedis()
			.withPropertyValues("distlock.locks.first.wait-time=0", "distlock.locks.second.lease-time=1s")
			.run((context) -> assertConfigurationFailure(context,
					"No @DistributedLock method has the lock names \"first\", \"second\" configured under "
							+ "distlock.locks; there are no @DistributedLock methods. Correct the name"));
	}

	@Test
	void unbracketedNameWithADotIsReportedAsSettingNothing() {
		this.runner.withPropertyValues("distlock.locks.Locked.unnamed.wait-time=0")
			.run((context) -> assertConfigurationFailure(context,
					"distlock.locks has properties that set nothing: distlock.locks.locked.unnamed.wait-time "
							+ "(\"distlock.locks.Locked.unnamed.wait-time\" from property source \"test\"). Put a lock "
							+ "name with dots in brackets, as in "
							+ "distlock.locks[StockService.decrement].wait-time, and set only wait-time, lease-time, "
							+ "min-hold-time and programmatic under it."));
	}

	@Test
	void misspeltSettingIsReportedAsSettingNothing() {
		this.runner.withPropertyValues("distlock.locks.stock.wait-time=0", "distlock.locks.stock.lease=1s")
			.run((context) -> assertConfigurationFailure(context,
					"distlock.locks has properties that set nothing: distlock.locks.stock.lease (\""));
	}

	@Test
	void bracketedNameKeepsItsDotsAndCapitals() {
		this.runner.withPropertyValues("distlock.locks[Locked.unnamed].wait-time=0").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(LockClient.class).defaultOptions("Locked.unnamed").waitTime()).isZero();
		});
	}

	@Test
	void programmaticNameIsNotReported() {
		this.runner.withPropertyValues("distlock.locks.report.programmatic=true", "distlock.locks.report.wait-time=0")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void namesOfLazyBeansAreKnownWithoutCreatingThem() {
		this.runner.withPropertyValues("distlock.locks.lazy.wait-time=0")
			.withBean("lazyLocked", LazyLocked.class, LazyLocked::new, (definition) -> definition.setLazyInit(true))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBeanFactory().containsSingleton("lazyLocked")).isFalse();
			});
	}

	@Test
	void clientThatDoesNotApplyTheSettingsFailsStartup() {
		this.runner.withPropertyValues("distlock.locks.stock.wait-time=0")
			.withBean(LockClient.class, UnconfiguredClient::new)
			.run((context) -> assertConfigurationFailure(context, "The LockClient ("
					+ UnconfiguredClient.class.getName()
					+ ") does not apply distlock.locks.stock: its defaultOptions(\"stock\") are "
					+ "LockOptions[waitTime=PT5S, leaseTime=null, minHoldTime=PT0S, name=stock, mode=EXCLUSIVE, permits=1] instead of "
					+ "LockOptions[waitTime=PT0S, leaseTime=null, minHoldTime=PT0S, name=stock, mode=EXCLUSIVE, permits=1]. Make "
					+ "defaultOptions(String) of the LockClient return the configured options"));
	}

	@Test
	void customizerThatChangesTheDefaultsKeepsTheSettingsOfTheNames() {
		this.runner.withPropertyValues("distlock.locks.stock.lease-time=10s")
			.withBean(RedisLockClientBuilderCustomizer.class,
					() -> (builder) -> builder.defaultOptions(LockOptions.renewing(Duration.ofSeconds(1))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RedisLockClient.class).defaultOptions("stock"))
					.isEqualTo(new LockOptions(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ZERO, "stock"));
			});
	}

	private static void assertConfigurationFailure(AssertableApplicationContext context, String message) {
		assertThat(context).getFailure()
			.isInstanceOf(DistributedLockConfigurationException.class)
			.hasMessageStartingWith(message);
	}

	@Configuration(proxyBeanMethods = false)
	static class LockedConfig {

		@Bean
		Locked locked() {
			return new Locked();
		}

	}

	static class Locked {

		@DistributedLock(key = "#id", name = "stock")
		public void stock(String id) {
		}

		@DistributedLock(key = "#id")
		public void unnamed(String id) {
		}

	}

	static class LazyLocked {

		@DistributedLock(key = "#id", name = "lazy")
		public void work(String id) {
		}

	}

	/**
	 * A client of the application's own that knows nothing of named settings.
	 */
	static class UnconfiguredClient implements LockClient {

		@Override
		public LockOptions defaultOptions() {
			return LockOptions.renewing(Duration.ofSeconds(5));
		}

		@Override
		public Optional<LockHandle> tryLock(String key, LockOptions options) {
			throw new UnsupportedOperationException();
		}

		@Override
		public LockHandle lock(String key, LockOptions options) {
			throw new UnsupportedOperationException();
		}

	}

}
