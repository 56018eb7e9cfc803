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

package dev.distlock.blockhound;

import java.time.Duration;

import io.netty.util.concurrent.FastThreadLocalThread;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that BlockHound is installed for this module's tests, so that the reactive
 * contract running clean under it means something: a blocking call on Reactor's parallel
 * scheduler or on a Lettuce event loop fails with {@link BlockingOperationError} and is
 * recorded, while the same call on the test's own thread is allowed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BlockHoundControlTests {

	private LettuceConnectionFactory connectionFactory;

	@BeforeAll
	void connect() {
		RedisTestServer server = RedisTestServers.shared();
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
	}

	@AfterAll
	void disconnect() {
		this.connectionFactory.destroy();
		RecordedBlockingCalls.drain();
	}

	@Test
	void sleepOnTheParallelSchedulerIsReported() {
		Mono<String> sleeping = Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel());
		StepVerifier.create(sleeping).verifyError(BlockingOperationError.class);
		assertThat(RecordedBlockingCalls.drain()).singleElement().asString().contains("java.lang.Thread.sleep");
	}

	@Test
	void blockingRedisCallOnTheParallelSchedulerIsReported() {
		StringRedisTemplate blocking = new StringRedisTemplate(this.connectionFactory);
		Mono<Boolean> blockingCall = Mono.fromCallable(() -> blocking.hasKey("test:blockhound:control"))
			.subscribeOn(Schedulers.parallel());
		StepVerifier.create(blockingCall).verifyError(BlockingOperationError.class);
		assertThat(RecordedBlockingCalls.drain()).isNotEmpty();
	}

	@Test
	void blockingRedisCallOnALettuceEventLoopIsReported() {
		StringRedisTemplate blocking = new StringRedisTemplate(this.connectionFactory);
		ReactiveStringRedisTemplate reactive = new ReactiveStringRedisTemplate(this.connectionFactory);
		// The reactive reply is emitted on the event loop, where the blocking call waits;
		// but on the subscribing thread if it comes while that thread still requests it:
		// asked again until it comes on the event loop.
		Mono<Boolean> onEventLoop = Mono.defer(() -> reactive.hasKey("test:blockhound:control"))
			.filter((exists) -> Thread.currentThread() instanceof FastThreadLocalThread)
			.repeatWhenEmpty(100, (empty) -> empty);
		// BLPOP with a timeout of a second: the reply cannot come before the caller
		// parks,
		// as a quick one could while CompletableFuture spins before it parks.
		Mono<String> nested = onEventLoop.map((exists) -> String
			.valueOf(blocking.opsForList().leftPop("test:blockhound:control", Duration.ofSeconds(1))));
		StepVerifier.create(nested).expectError(BlockingOperationError.class).verify(Duration.ofSeconds(10));
		assertThat(RecordedBlockingCalls.drain()).isNotEmpty();
	}

	@Test
	void openingTheSharedReactiveConnectionOnTheParallelSchedulerIsReported() {
		RedisTestServer server = RedisTestServers.shared();
		LettuceConnectionFactory unopened = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()));
		unopened.afterPropertiesSet();
		unopened.start();
		try {
			ReactiveStringRedisTemplate reactive = new ReactiveStringRedisTemplate(unopened);
			Mono<Boolean> firstCommand = Mono.defer(() -> reactive.hasKey("test:blockhound:control"))
				.subscribeOn(Schedulers.parallel());
			StepVerifier.create(firstCommand).expectError().verify(Duration.ofSeconds(10));
			assertThat(RecordedBlockingCalls.drain()).as("connecting inside the allowed lock").isNotEmpty();
		}
		finally {
			unopened.destroy();
		}
	}

	@Test
	void blockingCallOnTheTestThreadIsAllowed() throws InterruptedException {
		Thread.sleep(1);
		assertThat(new StringRedisTemplate(this.connectionFactory).hasKey("test:blockhound:control")).isFalse();
		assertThat(RecordedBlockingCalls.drain()).isEmpty();
	}

}
