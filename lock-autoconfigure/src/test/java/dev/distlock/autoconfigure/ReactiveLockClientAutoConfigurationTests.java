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

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.DistributedLock;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.ReactiveRedisLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.StartupFailures;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ReactiveLockClient} is auto-configured beside the Redis lock client when
 * Reactor is on the class path, unless the application defines one, grants must be
 * acknowledged by replicas, or locks are kept in memory; in the last two cases an
 * application without reactive locked methods still starts, and one with them fails at
 * startup naming the method and the property.
 */
class ReactiveLockClientAutoConfigurationTests {

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis();

	@Test
	void reactiveClientIsBuiltOnTheRedisLockClient() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(RedisLockClient.class).hasSingleBean(ReactiveRedisLockClient.class);
			ReactiveLockClient client = context.getBean(ReactiveLockClient.class);
			String key = TestRedis.uniqueKey("reactive-auto");
			LockOptions noWait = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));
			ReactiveLockHandle handle = client.lock(key, noWait).block(Duration.ofSeconds(10));
			assertThat(handle).isNotNull();
			assertThat(context.getBean(RedisLockClient.class).tryLock(key, noWait))
				.as("the blocking client shares the reactive client's locks")
				.isEmpty();
			handle.release().block(Duration.ofSeconds(10));
			assertThat(context.getBean(RedisLockClient.class).tryLock(key, noWait)).isPresent()
				.hasValueSatisfying(LockHandle::release);
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesAReactiveLockClient() {
		this.runner.withUserConfiguration(OwnReactiveClient.class).run((context) -> {
			assertThat(context).hasSingleBean(ReactiveLockClient.class).doesNotHaveBean(ReactiveRedisLockClient.class);
			assertThat(context.getBean(ReactiveLockClient.class)).isSameAs(OwnReactiveClient.CLIENT);
		});
	}

	@Test
	void noReactiveClientWithoutReactor() {
		this.runner.withClassLoader(new FilteredClassLoader(Mono.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockClient.class)
				.doesNotHaveBean(ReactiveLockClient.class));
	}

	@Test
	void noReactiveClientWhenGrantsMustBeAcknowledgedByReplicas() {
		this.runner.withPropertyValues("distlock.replication.min-replicas-acked=1")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockClient.class)
				.doesNotHaveBean(ReactiveLockClient.class));
	}

	@Test
	void reactiveLockedMethodFailsStartupWhenGrantsMustBeAcknowledgedByReplicas() {
		this.runner.withPropertyValues("distlock.replication.min-replicas-acked=1")
			.withBean(ReactiveReservations.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					ReactiveReservations.class.getName() + ".reserve(String)",
					"it returns Mono, whose lock is held by a ReactiveLockClient until its work ends, and there is "
							+ "none: distlock.replication.min-replicas-acked is 1, and reactive grants cannot wait "
							+ "for replicas to acknowledge them. Set distlock.replication.min-replicas-acked to 0, "
							+ "or lock a method that does its work before returning."));
	}

	@Test
	void noReactiveClientWithTheInMemoryStore() {
		inMemory().run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ReactiveLockClient.class));
	}

	@Test
	void reactiveLockedMethodFailsStartupWithTheInMemoryStore() {
		inMemory().withBean(StreamedReservations.class)
			.run((context) -> StartupFailures.assertInvalidLockDefinition(context,
					StreamedReservations.class.getName() + ".reserve(String)",
					"it returns Flux, whose lock is held by a ReactiveLockClient until its work ends, and there is "
							+ "none: distlock.store is in-memory, whose locks belong to threads"));
	}

	private ApplicationContextRunner inMemory() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(AopAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distlock.store=in-memory");
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnReactiveClient {

		static final ReactiveLockClient CLIENT = new ReactiveLockClient() {

			@Override
			public LockOptions defaultOptions() {
				return LockOptions.renewing(Duration.ZERO);
			}

			@Override
			public Mono<ReactiveLockHandle> tryLock(String key, LockOptions options) {
				return Mono.error(new UnsupportedOperationException());
			}

			@Override
			public Mono<ReactiveLockHandle> lock(String key, LockOptions options) {
				return Mono.error(new UnsupportedOperationException());
			}

			@Override
			public <T> Mono<T> withLock(String key, LockOptions options, Mono<T> work) {
				return Mono.error(new UnsupportedOperationException());
			}

			@Override
			public <T> Flux<T> withLock(String key, LockOptions options, Flux<T> work) {
				return Flux.error(new UnsupportedOperationException());
			}

		};

		@Bean
		ReactiveLockClient ownReactiveLockClient() {
			return CLIENT;
		}

	}

	static class ReactiveReservations {

		@DistributedLock(key = "'stock:' + #sku")
		public Mono<String> reserve(String sku) {
			return Mono.just(sku);
		}

	}

	static class StreamedReservations {

		@DistributedLock(key = "'stock:' + #sku")
		public Flux<String> reserve(String sku) {
			return Flux.just(sku);
		}

	}

}
