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

package dev.distlock.topology.contract;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.blockhound.RecordedBlockingCalls;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.contract.AbstractReactiveLockClientContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive lock contract for the {@link ReactiveLockClient} that distlock
 * auto-configures, beside its lock client, from a user's Spring Boot properties, under
 * BlockHound.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractBootReactiveContractTests extends AbstractReactiveLockClientContractTests {

	private ConfigurableApplicationContext application;

	private RedisLockClient client;

	private ReactiveStringRedisTemplate redis;

	private ReactiveLockClient reactive;

	/**
	 * Returns the properties that connect the application to the deployment under test.
	 * @return the properties, as {@code name=value}
	 */
	abstract List<String> connection();

	/**
	 * Returns whether the deployment is a cluster, whose keys of one lock share its slot.
	 * @return whether it is a cluster
	 */
	abstract boolean cluster();

	@BeforeAll
	void startApplication() {
		this.application = LockApplications.start(connection());
		this.client = this.application.getBean(RedisLockClient.class);
		this.redis = this.application.getBean(ReactiveStringRedisTemplate.class);
		// Opens the shared reactive connection on this thread, never on an event loop.
		this.redis.hasKey("test:reactive-contract:connect").block(Duration.ofSeconds(10));
		this.reactive = this.application.getBean(ReactiveLockClient.class);
	}

	@AfterAll
	void stopApplication() {
		if (this.application != null) {
			this.application.close();
		}
	}

	@BeforeEach
	void forgetEarlierBlockingCalls() {
		RecordedBlockingCalls.drain();
	}

	@AfterEach
	void noBlockingCalls() {
		assertThat(RecordedBlockingCalls.drain()).as("blocking calls on non-blocking threads").isEmpty();
	}

	@Override
	protected ReactiveLockClient client() {
		return this.reactive;
	}

	@Override
	protected Mono<Long> queueLength(String lockKey) {
		LockKeyspace keyspace = new LockKeyspace("", cluster(), RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);
		return this.redis.opsForList().size(keyspace.queueKey(lockKey));
	}

	@Override
	protected Mono<Long> waitingAcquirers(String lockKey) {
		return Mono.fromSupplier(() -> this.client.monitor()
			.waiters()
			.stream()
			.filter((waiter) -> waiter.key().equals(lockKey))
			.count());
	}

}
