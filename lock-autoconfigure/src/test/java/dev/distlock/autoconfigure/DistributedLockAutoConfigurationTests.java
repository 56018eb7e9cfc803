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
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockAutoConfiguration}.
 */
@ExtendWith(OutputCaptureExtension.class)
class DistributedLockAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis();

	@Test
	void defaultsProvideAClientAndAnAdvisorAheadOfTransactions() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(RedisLockClient.class).hasSingleBean(DistributedLockAdvisor.class);
			LockClient client = context.getBean(LockClient.class);
			assertThat(client.defaultOptions()).isEqualTo(LockOptions.renewing(Duration.ofSeconds(5)));
			RedisLockClient redisClient = context.getBean(RedisLockClient.class);
			assertThat(redisClient.isRunning()).as("started with the context").isTrue();
			assertThat(redisClient.monitor().releaseSubscription()).as("the client's own subscription").isPresent();
			assertThat(context.getBean(DistributedLockProperties.class).getWaiting().getMaxLocalPasses())
				.as("the property's default is the client's")
				.isEqualTo(RedisLockClientBuilder.DEFAULT_MAX_LOCAL_PASSES);
			assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
				.isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER)
				.isLessThan(Integer.MAX_VALUE);
		});
	}

	@Test
	void customizersChangeTheClientAfterThePropertiesInTheirOrder() {
		this.runner.withPropertyValues("distlock.key-prefix=shop:")
			.withBean("second", RedisLockClientBuilderCustomizer.class,
					() -> new OrderedCustomizer(2, (builder) -> builder.keyPrefix("second:")))
			.withBean("first", RedisLockClientBuilderCustomizer.class,
					() -> new OrderedCustomizer(1, (builder) -> builder.keyPrefix("first:")))
			.run((context) -> {
				assertThat(context).hasSingleBean(RedisLockClient.class);
				try (LockHandle handle = context.getBean(LockClient.class).lock("customized:" + System.nanoTime())) {
					assertThat(handle.key()).as("the last customizer in order wins over the property")
						.startsWith("second:customized:");
				}
			});
	}

	@Test
	void propertiesAreBound() {
		this.runner
			.withPropertyValues("distlock.wait-time=250ms", "distlock.lease-time=PT1M", "distlock.key-prefix=shop:",
					"distlock.order=42", "distlock.waiting.max-local-passes=0")
			.run((context) -> {
				LockClient client = context.getBean(LockClient.class);
				assertThat(client.defaultOptions())
					.isEqualTo(new LockOptions(Duration.ofMillis(250), Duration.ofMinutes(1)));
				try (LockHandle handle = client.lock("bound:" + System.nanoTime())) {
					assertThat(handle.key()).startsWith("shop:bound:");
				}
				assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
				assertThat(context.getBean(DistributedLockProperties.class).getWaiting().getMaxLocalPasses()).isZero();
			});
	}

	@Test
	void backsOffWhenTheUserDefinesALockClient() {
		this.runner.withUserConfiguration(CountingClientConfig.class, LockedConfig.class).run((context) -> {
			assertThat(context).doesNotHaveBean(RedisLockClient.class).hasSingleBean(LockClient.class);
			context.getBean(LockedService.class).work("user-client");
			assertThat(context.getBean(CountingLockClient.class).locks).hasValue(1);
		});
	}

	@Test
	void disabledByPropertyLeavesMethodsUnlockedAndSaysSo(CapturedOutput output) {
		this.runner.withPropertyValues("distlock.enabled=false")
			.withConfiguration(AutoConfigurations.of(DistributedLockDisabledAutoConfiguration.class))
			.withUserConfiguration(LockedConfig.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LockClient.class).doesNotHaveBean(DistributedLockAdvisor.class);
				assertThat(AopUtils.isAopProxy(context.getBean(LockedService.class))).isFalse();
			});
		assertThat(output).containsOnlyOnce("distlock.enabled=false: @DistributedLock methods run without any lock");
	}

	@Test
	void enabledSaysNothingAboutRunningWithoutLocks(CapturedOutput output) {
		this.runner.withConfiguration(AutoConfigurations.of(DistributedLockDisabledAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(LockClient.class));
		assertThat(output).doesNotContain("run without any lock");
	}

	@Test
	void backsOffWithoutSpringDataRedis() {
		this.runner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class, StringRedisTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockClient.class)
				.doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void locksMethodsWithoutAspectJOnTheClassPath() {
		this.runner.withClassLoader(new FilteredClassLoader("org.aspectj"))
			.withUserConfiguration(LockedConfig.class)
			.run((context) -> {
				LockedService service = context.getBean(LockedService.class);
				assertThat(AopUtils.isAopProxy(service)).isTrue();
				assertThat(service.work("no-aspectj")).as("lock held during the call").isTrue();
			});
	}

	@Test
	void lockedBeanWithoutAnyRedisFailsAtStartup() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
			.withBean(UnconnectedService.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessageContaining("no LockClient bean")
				.hasMessageContaining("spring.data.redis"));
	}

	@Configuration(proxyBeanMethods = false)
	static class LockedConfig {

		@Bean
		LockedService lockedService(StringRedisTemplate redis) {
			return new LockedService(redis);
		}

	}

	public static class LockedService {

		private final StringRedisTemplate redis;

		public LockedService(StringRedisTemplate redis) {
			this.redis = redis;
		}

		@DistributedLock("'svc:' + #id")
		public boolean work(String id) {
			return this.redis.hasKey("svc:" + id);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CountingClientConfig {

		@Bean
		CountingLockClient countingLockClient(RedisConnectionFactory connectionFactory) {
			return new CountingLockClient(new RedisLockClient(new StringRedisTemplate(connectionFactory),
					dev.distlock.redis.wait.JitteredBackoffWaiter.standard(), "",
					new LockOptions(Duration.ofSeconds(1), Duration.ofSeconds(10))));
		}

	}

	static class CountingLockClient implements LockClient {

		final AtomicInteger locks = new AtomicInteger();

		private final LockClient delegate;

		CountingLockClient(LockClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public LockOptions defaultOptions() {
			return this.delegate.defaultOptions();
		}

		@Override
		public Optional<LockHandle> tryLock(String key, LockOptions options) {
			this.locks.incrementAndGet();
			return this.delegate.tryLock(key, options);
		}

		@Override
		public LockHandle lock(String key, LockOptions options) {
			this.locks.incrementAndGet();
			return this.delegate.lock(key, options);
		}

	}

	static class UnconnectedService {

		@DistributedLock("'svc:' + #id")
		public void work(String id) {
		}

	}

	record OrderedCustomizer(int order, RedisLockClientBuilderCustomizer customizer)
			implements
				RedisLockClientBuilderCustomizer,
				org.springframework.core.Ordered {

		@Override
		public void customize(RedisLockClientBuilder builder) {
			this.customizer.customize(builder);
		}

		@Override
		public int getOrder() {
			return this.order;
		}

	}

}
