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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.blockhound.RecordedBlockingCalls;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.redlock.ReactiveRedLockClient;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.contract.AbstractReactiveLockClientContractTests;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive lock contract for the {@link ReactiveRedLockClient} on 3 independent
 * {@code redis-server} processes, as {@code distlock.store=redlock} configures it with
 * Reactor: the same suite as for the reactive Redis client, unchanged. RedLock waiters
 * never queue (their queue is always empty); the waiting acquisitions are counted from
 * the client's {@link LockListener} events. BlockHound is installed: the RedLock client's
 * blocking code must run on the reactive client's own scheduler only, never on a Reactor
 * or Lettuce thread.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReactiveRedLockContractTests extends AbstractReactiveLockClientContractTests {

	private final List<RedisServerProcess> servers = new ArrayList<>();

	private final Map<String, AtomicLong> waiting = new ConcurrentHashMap<>();

	private RedLockClient client;

	private ReactiveRedLockClient reactive;

	@BeforeAll
	void start() {
		List<String> urls = new ArrayList<>();
		for (int i = 0; i < nodeCount(); i++) {
			RedisServerProcess server = RedisServerProcess.startOnFreePort();
			this.servers.add(server);
			urls.add("redis://" + server.host() + ":" + server.port());
		}
		this.client = RedLockClient.builder(urls)
			// The nodes are fresh, and restarts are not this suite's subject: they count
			// at
			// once, as with every write persisted.
			.appendfsyncAlways(true)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3))
			.nodeTimeout(Duration.ofMillis(90))
			.listener(new LockListener() {

				@Override
				public void startedWaiting(String key, LockOptions options) {
					waiters(key).incrementAndGet();
				}

				@Override
				public void stoppedWaiting(String key, LockOptions options) {
					waiters(key).decrementAndGet();
				}

			})
			.build();
		this.client.checkNodes(Duration.ofSeconds(5));
		this.reactive = new ReactiveRedLockClient(this.client);
		// Loads the scripts on every node and warms the connections up, so that the
		// first test does not meet a cold JVM with a 90 ms node timeout.
		for (int i = 0; i < 20; i++) {
			this.reactive.withLock("test:warm-up", LockOptions.renewing(Duration.ofSeconds(5)), Mono.just(i))
				.block(Duration.ofSeconds(10));
		}
	}

	/**
	 * Returns how many nodes the client locks on.
	 * @return the number of redis-server processes to start
	 */
	int nodeCount() {
		return 3;
	}

	@AfterAll
	void stop() {
		if (this.reactive != null) {
			this.reactive.close();
		}
		if (this.client != null) {
			this.client.close();
		}
		this.servers.forEach(RedisServerProcess::close);
	}

	@BeforeEach
	void forgetEarlierBlockingCalls() {
		RecordedBlockingCalls.drain();
	}

	@AfterEach
	void noBlockingCalls() {
		assertThat(RecordedBlockingCalls.drain()).as("blocking calls on non-blocking threads").isEmpty();
	}

	private AtomicLong waiters(String key) {
		return this.waiting.computeIfAbsent(key, (k) -> new AtomicLong());
	}

	@Override
	protected ReactiveLockClient client() {
		return this.reactive;
	}

	@Override
	protected Mono<Long> queueLength(String lockKey) {
		return Mono.just(0L);
	}

	@Override
	protected Mono<Long> waitingAcquirers(String lockKey) {
		return Mono.fromSupplier(() -> waiters(lockKey).get());
	}

}
