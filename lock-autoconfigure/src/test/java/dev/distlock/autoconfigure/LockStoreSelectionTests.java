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
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.memory.InMemoryLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distlock.store} selects where locks are kept: Redis by default, never memory
 * unless asked for, and memory, with a warning, when asked for.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockStoreSelectionTests {

	private static final String WARNING = "distlock.store=in-memory: locks are local to this JVM";

	/** An application with distlock and AOP but no Redis at all. */
	private final ApplicationContextRunner withoutRedis = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	@Test
	void inMemoryStoreLocksWithoutRedisAndWarnsOnce(CapturedOutput output) {
		this.withoutRedis.withPropertyValues("distlock.store=in-memory")
			.withBean(LockedService.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockClient.class)
					.hasSingleBean(InMemoryLockClient.class)
					.doesNotHaveBean(RedisLockClient.class);
				assertThat(context.getBean(LockedService.class).fencingToken("sku:1")).isPositive();
			});
		assertThat(output).containsOnlyOnce(WARNING);
	}

	@Test
	void defaultStoreWithoutRedisStillFailsAtStartup(CapturedOutput output) {
		this.withoutRedis.withBean(LockedService.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessageContaining("no LockClient bean")
				.hasMessageContaining("spring.data.redis"));
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void redisStoreWithoutRedisFailsAtStartupAsTheDefaultDoes() {
		this.withoutRedis.withPropertyValues("distlock.store=redis")
			.withBean(LockedService.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessageContaining("no LockClient bean"));
	}

	@Test
	void redisIsTheDefaultStoreAndNothingIsSaidAboutMemory(CapturedOutput output) {
		LockTestContexts.withSharedRedis()
			.run((context) -> assertThat(context).hasSingleBean(RedisLockClient.class)
				.doesNotHaveBean(InMemoryLockClient.class));
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void inMemoryStoreIsUsedWhenAskedForEvenWithRedisConfigured(CapturedOutput output) {
		LockTestContexts.withSharedRedis()
			.withPropertyValues("distlock.store=in-memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryLockClient.class)
				.doesNotHaveBean(RedisLockClient.class));
		assertThat(output).containsOnlyOnce(WARNING);
	}

	@Test
	void storeIsBoundAsSpringBootBindsEnums() {
		for (String value : new String[] { "IN_MEMORY", "in_memory", "In-Memory" }) {
			this.withoutRedis.withPropertyValues("distlock.store=" + value)
				.run((context) -> assertThat(context).as(value).hasSingleBean(InMemoryLockClient.class));
		}
	}

	@Test
	void unknownStoreFailsStartupNamingTheProperty() {
		this.withoutRedis.withPropertyValues("distlock.store=memcached").run((context) -> {
			assertThat(context).hasFailed();
			List<Throwable> causes = new ArrayList<>();
			for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
				causes.add(cause);
			}
			assertThat(causes).as("causes of the startup failure")
				.anySatisfy((cause) -> assertThat(cause).isInstanceOf(BindException.class)
					.hasMessageContaining("distlock.store"));
		});
	}

	@Test
	void inMemoryClientTakesTheDistlockProperties() {
		this.withoutRedis
			.withPropertyValues("distlock.store=in-memory", "distlock.wait-time=250ms", "distlock.lease-time=1m",
					"distlock.key-prefix=shop:", "distlock.renewal.lease=10s")
			.run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				assertThat(client.defaultOptions())
					.isEqualTo(new LockOptions(Duration.ofMillis(250), Duration.ofMinutes(1)));
				try (LockHandle handle = client.lock("bound", LockOptions.renewing(Duration.ZERO))) {
					assertThat(handle.key()).isEqualTo("shop:bound");
					assertThat(handle.leaseTime()).isEqualTo(Duration.ofSeconds(10));
				}
			});
	}

	@Test
	void inMemoryClientTakesTheSettingsPerLock() {
		this.withoutRedis
			.withPropertyValues("distlock.store=in-memory", "distlock.wait-time=250ms",
					"distlock.locks.report.wait-time=0", "distlock.locks.report.lease-time=7s",
					"distlock.locks.report.programmatic=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LockClient client = context.getBean(LockClient.class);
				assertThat(client.defaultOptions("report"))
					.isEqualTo(new LockOptions(Duration.ZERO, Duration.ofSeconds(7)).withName("report"));
				assertThat(client.defaultOptions("other"))
					.isEqualTo(new LockOptions(Duration.ofMillis(250), null).withName("other"));
			});
	}

	@Test
	void inMemoryStoreBacksOffWhenTheUserDefinesALockClient() {
		InMemoryLockClient own = new InMemoryLockClient();
		this.withoutRedis.withPropertyValues("distlock.store=in-memory")
			.withBean("ownLockClient", LockClient.class, () -> own)
			.run((context) -> assertThat(context).hasSingleBean(LockClient.class)
				.getBean(LockClient.class)
				.isSameAs(own));
	}

	public static class LockedService {

		@DistributedLock("'svc:' + #id")
		public long fencingToken(String id) {
			return LockContext.fencingToken();
		}

	}

}
