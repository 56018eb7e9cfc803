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

package dev.distlock.aop;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock} methods returning {@code Mono}, {@code Flux} and
 * {@code CompletableFuture}, on a real Redis: concurrent calls exclude each other, the
 * body runs only once the lock is held, the lock is held until the returned work ends
 * (not when the method returns) and released however it ends, a nested call of the same
 * key re-enters, and a lease lost while the work runs errors it.
 */
class ReactiveLockedMethodTests {

	private static final int CALLS = 16;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(ReactiveStockConfig.class);

	@Test
	void concurrentMonoCallsExcludeEachOther() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			List<Long> levels = Flux.range(0, CALLS)
				.flatMap((i) -> stock.increment(sku), CALLS)
				.collectList()
				.block(TIMEOUT);
			assertThat(levels)
				.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, CALLS).mapToObj(Long::valueOf).toList());
			assertThat(level(context, sku)).isEqualTo(CALLS);
		});
	}

	@Test
	void concurrentFluxCallsExcludeEachOther() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			Flux.range(0, CALLS).flatMap((i) -> stock.incrementTwice(sku), CALLS).blockLast(TIMEOUT);
			assertThat(level(context, sku)).isEqualTo(2 * CALLS);
		});
	}

	@Test
	void concurrentCompletableFutureCallsExcludeEachOther() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			CompletableFuture<?>[] calls = IntStream.range(0, CALLS)
				.mapToObj((i) -> stock.incrementLater(sku))
				.toArray(CompletableFuture[]::new);
			CompletableFuture.allOf(calls).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
			assertThat(level(context, sku)).isEqualTo(CALLS);
			assertThat(stock.invocations()).isEqualTo(CALLS);
		});
	}

	@Test
	void monoIsInvokedOnSubscriptionAndHoldsTheLockUntilItCompletes() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			Sinks.One<String> done = Sinks.one();
			Mono<String> call = stock.holdUntil(sku, done.asMono());
			assertThat(stock.invocations()).as("not invoked before subscription").isZero();
			assertThat(isFree(context, sku)).as("not locked before subscription").isTrue();
			CompletableFuture<String> result = call.toFuture();
			await().until(() -> stock.invocations() == 1);
			assertThat(isFree(context, sku)).as("held after the method returned").isFalse();
			done.tryEmitValue("done");
			assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku));
		});
	}

	@Test
	void fluxHoldsTheLockUntilItCompletes() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			Sinks.Many<String> elements = Sinks.many().unicast().onBackpressureBuffer();
			CompletableFuture<List<String>> result = stock.streamUntil(sku, elements.asFlux()).collectList().toFuture();
			elements.tryEmitNext("first");
			await().until(() -> stock.invocations() == 1);
			assertThat(isFree(context, sku)).isFalse();
			elements.tryEmitNext("second");
			elements.tryEmitComplete();
			assertThat(result.get(10, TimeUnit.SECONDS)).containsExactly("first", "second");
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku));
		});
	}

	@Test
	void callersOfACompletableFutureMethodDoNotContinueOnTheRedisEventLoop() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			String thread = stock.incrementLater(sku)
				.thenApply((level) -> Thread.currentThread().getName())
				.get(10, TimeUnit.SECONDS);
			assertThat(thread).doesNotContain("lettuce");
		});
	}

	@Test
	void completableFutureHoldsTheLockUntilTheMethodsStageCompletes() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			CompletableFuture<String> done = new CompletableFuture<>();
			CompletableFuture<String> result = stock.completeWith(sku, done);
			await().until(() -> stock.invocations() == 1);
			assertThat(isFree(context, sku)).isFalse();
			assertThat(result).isNotDone();
			done.complete("done");
			assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku));
		});
	}

	@Test
	void errorReleasesTheLock() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			IllegalStateException failure = new IllegalStateException("out of stock");
			StepVerifier.create(stock.holdUntil(sku, Mono.error(failure))).verifyErrorSatisfies((error) -> {
				assertThat(error).isSameAs(failure);
			});
			CompletableFuture<String> failed = stock.completeWith(sku + ":future",
					CompletableFuture.failedFuture(failure));
			assertThatExceptionOfType(Exception.class).isThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
				.withCause(failure);
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku) && isFree(context, sku + ":future"));
		});
	}

	@Test
	void disposingTheSubscriptionReleasesTheLock() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			Disposable mono = stock.holdUntil(sku, Mono.never()).subscribe();
			Disposable flux = stock.streamUntil(sku + ":flux", Flux.never()).subscribe();
			await().until(() -> stock.invocations() == 2);
			assertThat(isFree(context, sku) || isFree(context, sku + ":flux")).isFalse();
			mono.dispose();
			flux.dispose();
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku) && isFree(context, sku + ":flux"));
		});
	}

	@Test
	void cancellingTheFutureCancelsTheMethodsStageAndReleasesTheLock() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			CompletableFuture<String> never = new CompletableFuture<>();
			CompletableFuture<String> result = stock.completeWith(sku, never);
			await().until(() -> stock.invocations() == 1);
			assertThat(isFree(context, sku)).isFalse();
			assertThat(result.cancel(true)).isTrue();
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku));
			assertThat(never).as("the method's own stage").isCancelled();
		});
	}

	@Test
	void nestedCallOfTheSameKeyInTheSameChainReentersTheHold() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock.Nested nested = context.getBean(ReactiveStock.Nested.class);
			long[] tokens = nested.outerAndInnerTokens(sku).block(TIMEOUT);
			assertThat(tokens).hasSize(2);
			assertThat(tokens[1]).as("the inner call's hold is the outer one").isEqualTo(tokens[0]).isPositive();
			await().atMost(Duration.ofSeconds(5)).until(() -> isFree(context, sku));
		});
	}

	@Test
	void leaseLostWhileTheWorkRunsErrorsThePublisher() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			StepVerifier.create(stock.outlive(sku))
				.expectError(LockLeaseLostException.class)
				.verify(Duration.ofSeconds(10));
		});
	}

	@Test
	void keyIsEvaluatedWhenTheMethodIsCalled() {
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			assertThatExceptionOfType(LockKeyExpressionException.class).isThrownBy(() -> stock.keyed(""))
				.withMessageContaining("yielded null");
			assertThat(stock.invocations()).isZero();
		});
	}

	private static long level(ApplicationContext context, String sku) {
		StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
		redis.afterPropertiesSet();
		return Long.parseLong(redis.opsForValue().get(ReactiveStock.levelKey(sku)));
	}

	/** Whether the lock is free: a blocking acquisition on this thread gets it. */
	private static boolean isFree(ApplicationContext context, String sku) {
		LockClient client = context.getBean(LockClient.class);
		Optional<LockHandle> handle = client.tryLock(ReactiveStock.lockKey(sku),
				new LockOptions(Duration.ZERO, Duration.ofSeconds(30)));
		handle.ifPresent(LockHandle::release);
		return handle.isPresent();
	}

}
