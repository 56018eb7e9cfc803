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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.distlock.LockClient;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.testing.HeldLock;
import dev.distlock.testing.LockTestContexts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * When the lock of a method returning {@code Mono}, {@code Flux} or
 * {@code CompletableFuture} is held elsewhere, its body never runs: {@code THROW} errors
 * the result with the blocking path's {@link LockNotAcquiredException}, {@code SKIP}
 * completes it empty (a future with {@code null}), {@code FALLBACK} gives the fallback
 * method's publisher or stage.
 */
class ReactiveLockFailureTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final ApplicationContextRunner runner = LockTestContexts.withSharedRedis()
		.withUserConfiguration(ReactiveStockConfig.class);

	@Test
	void throwErrorsTheResultWithoutInvokingTheMethod() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), ReactiveStock.lockKey(sku))) {
				StepVerifier.create(stock.holdUntil(sku, Mono.just("done")))
					.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(LockNotAcquiredException.class)
						.hasMessageContaining("stock:" + sku))
					.verify(TIMEOUT);
				StepVerifier.create(stock.streamUntil(sku, Flux.just("done")))
					.expectError(LockNotAcquiredException.class)
					.verify(TIMEOUT);
				CompletableFuture<String> future = stock.completeWith(sku, CompletableFuture.completedFuture("done"));
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> future.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
					.withCauseInstanceOf(LockNotAcquiredException.class);
			}
			assertThat(stock.invocations()).isZero();
		});
	}

	@Test
	void skipCompletesEmptyWithoutInvokingTheMethod() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), ReactiveStock.lockKey(sku))) {
				StepVerifier.create(stock.skipMono(sku)).expectComplete().verify(TIMEOUT);
				StepVerifier.create(stock.skipFlux(sku)).expectComplete().verify(TIMEOUT);
				assertThat(stock.skipFuture(sku).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isNull();
			}
			assertThat(stock.invocations()).isZero();
		});
	}

	@Test
	void fallbackGivesTheFallbacksResultWithoutInvokingTheMethod() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			try (HeldLock held = HeldLock.elsewhere(context.getBean(LockClient.class), ReactiveStock.lockKey(sku))) {
				StepVerifier.create(stock.fallBackMono(sku))
					.expectNext("queued " + sku)
					.expectComplete()
					.verify(TIMEOUT);
				StepVerifier.create(stock.fallBackFlux(sku)).expectNext("queued", sku).expectComplete().verify(TIMEOUT);
				assertThat(stock.fallBackFuture(sku).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
					.isEqualTo("queued " + sku);
			}
			assertThat(stock.invocations()).isZero();
		});
	}

	@Test
	void methodRunsWhenTheLockIsFree() {
		String sku = TestRedis.uniqueKey("sku");
		this.runner.run((context) -> {
			ReactiveStock stock = context.getBean(ReactiveStock.class);
			StepVerifier.create(stock.skipMono(sku)).expectNext("reserved " + sku).expectComplete().verify(TIMEOUT);
			StepVerifier.create(stock.fallBackFlux(sku)).expectNext("reserved " + sku).expectComplete().verify(TIMEOUT);
			assertThat(stock.fallBackFuture(sku).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
				.isEqualTo("reserved " + sku);
			assertThat(stock.invocations()).isEqualTo(3);
		});
	}

}
