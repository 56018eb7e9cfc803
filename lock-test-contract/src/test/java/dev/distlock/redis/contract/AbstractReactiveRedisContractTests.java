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

package dev.distlock.redis.contract;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.blockhound.RecordedBlockingCalls;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redis.ReactiveRedisLockClient;
import dev.distlock.redis.RedisLockClient;
import dev.distlock.redis.RedisLockClientBuilder;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.contract.AbstractReactiveLockClientContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive lock contract for a {@link ReactiveRedisLockClient} on a
 * {@link RedisLockClient} built through its public builder, on a connection of its own to
 * the shared test Redis; a subclass configures the builder. BlockHound is installed for
 * these tests: a blocking call on a Reactor or Lettuce thread during a test fails it,
 * even where the error it throws is swallowed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractReactiveRedisContractTests extends AbstractReactiveLockClientContractTests {

	private final LockKeyspace keyspace = new LockKeyspace("", false, RedisLockClientBuilder.DEFAULT_MAX_KEY_LENGTH);

	private ContractRedisClient blocking;

	private RedisLockClient client;

	private ReactiveStringRedisTemplate redis;

	private ReactiveRedisLockClient reactive;

	/**
	 * Sets what the client under test does differently from the builder's defaults.
	 * @param builder the builder of the client
	 */
	abstract void configure(RedisLockClientBuilder builder);

	@BeforeAll
	void start() {
		this.blocking = ContractRedisClient.start(this::configure);
		this.client = this.blocking.client;
		this.redis = new ReactiveStringRedisTemplate(this.blocking.connectionFactory);
		// Opens the shared reactive connection here, as an application does at startup:
		// opening it is blocking I/O, never to happen on a Lettuce or Reactor thread.
		this.redis.hasKey("test:reactive-contract:connect").block(Duration.ofSeconds(10));
		this.reactive = new ReactiveRedisLockClient(this.client, this.redis);
	}

	@AfterAll
	void stop() {
		if (this.blocking != null) {
			this.blocking.close();
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
		return this.redis.opsForList().size(this.keyspace.queueKey(lockKey));
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
