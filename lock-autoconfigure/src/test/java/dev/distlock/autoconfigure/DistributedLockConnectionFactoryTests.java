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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockConfigurationException;
import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.OwnRedisServer;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;

/**
 * Tests for the choice of
 * {@link org.springframework.data.redis.connection.RedisConnectionFactory} among several:
 * the {@link DistributedLockConnectionFactory @DistributedLockConnectionFactory} one,
 * else the {@code @Primary} one, else a startup failure that names them. Two Redis
 * servers (the shared one and one of this class) tell by their keys and subscriptions
 * which factory the lock client and its release subscription use.
 */
class DistributedLockConnectionFactoryTests {

	@RegisterExtension
	static final OwnRedisServer OWN = new OwnRedisServer();

	private static LettuceConnectionFactory sharedConnection;

	private static LettuceConnectionFactory ownConnection;

	private static StringRedisTemplate shared;

	private static StringRedisTemplate own;

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis();

	@BeforeAll
	static void connect() {
		sharedConnection = TestRedis.connectionFactory(RedisTestServers.shared());
		ownConnection = TestRedis.connectionFactory(OWN.server());
		shared = TestRedis.template(sharedConnection);
		own = TestRedis.template(ownConnection);
	}

	@AfterAll
	static void disconnect() {
		sharedConnection.destroy();
		ownConnection.destroy();
	}

	@Test
	void primaryFactoryIsUsed() {
		this.runner.withUserConfiguration(OwnPrimarySharedOther.class)
			.run((context) -> assertLocksAndSubscribesOn(context, own, shared));
	}

	@Test
	void qualifiedFactoryIsUsedEvenWhenAnotherIsPrimary() {
		this.runner.withUserConfiguration(SharedPrimaryOwnQualified.class)
			.run((context) -> assertLocksAndSubscribesOn(context, own, shared));
	}

	@Test
	void qualifiedNonDefaultFactoryIsUsedBesideSpringBootsOwn() {
		this.runner.withUserConfiguration(OwnQualifiedNotDefault.class).run((context) -> {
			assertThat(context).hasBean("redisConnectionFactory").hasBean("lockConnectionFactory");
			assertLocksAndSubscribesOn(context, own, shared);
		});
	}

	@Test
	void severalFactoriesWithoutChoiceFailStartupNamingThem() {
		this.runner.withUserConfiguration(TwoUnmarked.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessage("distlock cannot tell which RedisConnectionFactory to use: there are 2 "
						+ "(firstRedis, secondRedis) and none is @Primary or annotated with "
						+ "@DistributedLockConnectionFactory. Mark the one the application uses by default @Primary, "
						+ "or annotate the one distlock should use with "
						+ "@dev.distlock.autoconfigure.DistributedLockConnectionFactory."));
	}

	@Test
	void severalQualifiedFactoriesFailStartupNamingThem() {
		this.runner.withUserConfiguration(TwoQualified.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(DistributedLockConfigurationException.class)
				.hasMessage("Several RedisConnectionFactory beans are annotated with @DistributedLockConnectionFactory "
						+ "(firstRedis, secondRedis). Annotate only the one distlock should use."));
	}

	@Test
	void userLockClientNeedsNoChoice() {
		this.runner.withUserConfiguration(TwoUnmarked.class, UserLockClient.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(LockClient.class)
				.hasBean("userLockClient"));
	}

	@Test
	void factoryDefinedAfterDistlockIsNotReportedAsMissingRedis() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class, LateRedis.class))
			.withBean(LockedService.class)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Bean 'distributedLockConnectionFactoryTests.LockedService' has "
						+ "@DistributedLock methods but there is no LockClient bean")
				.hasMessageContaining("There is a RedisConnectionFactory (lateRedis) but distlock's "
						+ "auto-configuration did not find one when it ran")
				.hasMessageNotContaining("onfigure Redis"));
	}

	private static void assertLocksAndSubscribesOn(AssertableApplicationContext context, StringRedisTemplate chosen,
			StringRedisTemplate other) {
		assertThat(context).hasNotFailed();
		try (LockHandle handle = context.getBean(LockClient.class).lock(TestRedis.uniqueKey("choice"))) {
			assertThat(chosen.hasKey(handle.key())).as("lock key on the chosen server").isTrue();
			assertThat(other.hasKey(handle.key())).as("lock key on the other server").isFalse();
		}
		String channel = context.getBean(RedisLockClient.class).monitor().releaseSubscription().orElseThrow().channel();
		await().atMost(Duration.ofSeconds(10)).until(() -> subscribers(chosen, channel) == 1);
		assertThat(subscribers(other, channel)).as("subscribers on the other server").isZero();
	}

	@SuppressWarnings("unchecked")
	private static long subscribers(StringRedisTemplate redis, String channel) {
		Map<byte[], Long> reply = redis.execute((RedisCallback<Map<byte[], Long>>) (connection) -> {
			RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection
				.getNativeConnection();
			return LettuceFutures.awaitOrCancel(commands.pubsubNumsub(channel.getBytes()), 2, TimeUnit.SECONDS);
		});
		return reply.values().iterator().next();
	}

	private static LettuceConnectionFactory factory(RedisTestServer server) {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPrimarySharedOther {

		@Bean
		LettuceConnectionFactory sharedRedis() {
			return factory(RedisTestServers.shared());
		}

		@Bean
		@Primary
		LettuceConnectionFactory ownRedis() {
			return factory(OWN.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SharedPrimaryOwnQualified {

		@Bean
		@Primary
		LettuceConnectionFactory sharedRedis() {
			return factory(RedisTestServers.shared());
		}

		@Bean
		@DistributedLockConnectionFactory
		LettuceConnectionFactory ownRedis() {
			return factory(OWN.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnQualifiedNotDefault {

		@Bean(defaultCandidate = false)
		@DistributedLockConnectionFactory
		LettuceConnectionFactory lockConnectionFactory() {
			return factory(OWN.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoUnmarked {

		@Bean
		LettuceConnectionFactory firstRedis() {
			return factory(RedisTestServers.shared());
		}

		@Bean
		LettuceConnectionFactory secondRedis() {
			return factory(OWN.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoQualified {

		@Bean
		@DistributedLockConnectionFactory
		LettuceConnectionFactory firstRedis() {
			return factory(RedisTestServers.shared());
		}

		@Bean
		@DistributedLockConnectionFactory
		LettuceConnectionFactory secondRedis() {
			return factory(OWN.server());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserLockClient {

		@Bean
		LockClient userLockClient() {
			return mock(LockClient.class);
		}

	}

	@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
	static class LateRedis {

		@Bean
		LettuceConnectionFactory lateRedis() {
			return factory(RedisTestServers.shared());
		}

	}

	static class LockedService {

		@DistributedLock("'svc:' + #id")
		public void work(String id) {
		}

	}

}
