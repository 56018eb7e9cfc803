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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockFailureAction;
import dev.distlock.reactive.ReactiveLockContext;

/**
 * Stock levels per SKU kept in Redis and changed with a non-atomic read-modify-write
 * through the reactive template, by locked methods that return {@code Mono}, {@code Flux}
 * and {@code CompletableFuture}; it counts how often their bodies run.
 */
public class ReactiveStock {

	private final ReactiveStringRedisTemplate redis;

	private final AtomicInteger invocations = new AtomicInteger();

	ReactiveStock(ReactiveStringRedisTemplate redis) {
		this.redis = redis;
	}

	int invocations() {
		return this.invocations.get();
	}

	static String lockKey(String sku) {
		return "stock:" + sku;
	}

	static String levelKey(String sku) {
		return "level:" + sku;
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "30s")
	public Mono<Long> increment(String sku) {
		this.invocations.incrementAndGet();
		return readModifyWrite(sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "30s")
	public Flux<Long> incrementTwice(String sku) {
		this.invocations.incrementAndGet();
		return Flux.range(0, 2).concatMap((i) -> readModifyWrite(sku));
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "30s")
	public CompletableFuture<Long> incrementLater(String sku) {
		this.invocations.incrementAndGet();
		return readModifyWrite(sku).toFuture();
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
	public Mono<String> holdUntil(String sku, Mono<String> done) {
		this.invocations.incrementAndGet();
		return done;
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
	public Flux<String> streamUntil(String sku, Flux<String> done) {
		this.invocations.incrementAndGet();
		return done;
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
	public CompletableFuture<String> completeWith(String sku, CompletableFuture<String> done) {
		this.invocations.incrementAndGet();
		return done;
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", leaseTime = "300ms")
	public Mono<String> outlive(String sku) {
		this.invocations.incrementAndGet();
		return Mono.never();
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
	public Mono<Long> fencingToken(String sku) {
		this.invocations.incrementAndGet();
		return ReactiveLockContext.fencingToken();
	}

	@DistributedLock(key = "#sku.isEmpty() ? null : 'stock:' + #sku", waitTime = "0")
	public Mono<String> keyed(String sku) {
		this.invocations.incrementAndGet();
		return Mono.just(sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	public Mono<String> skipMono(String sku) {
		this.invocations.incrementAndGet();
		return Mono.just("reserved " + sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	public Flux<String> skipFlux(String sku) {
		this.invocations.incrementAndGet();
		return Flux.just("reserved " + sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	public CompletableFuture<String> skipFuture(String sku) {
		this.invocations.incrementAndGet();
		return CompletableFuture.completedFuture("reserved " + sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "queuedMono")
	public Mono<String> fallBackMono(String sku) {
		this.invocations.incrementAndGet();
		return Mono.just("reserved " + sku);
	}

	Mono<String> queuedMono(String sku) {
		return Mono.just("queued " + sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "queuedFlux")
	public Flux<String> fallBackFlux(String sku) {
		this.invocations.incrementAndGet();
		return Flux.just("reserved " + sku);
	}

	Flux<String> queuedFlux(String sku) {
		return Flux.just("queued", sku);
	}

	@DistributedLock(key = "'stock:' + #sku", waitTime = "0", fallbackMethod = "queuedFuture")
	public CompletableFuture<String> fallBackFuture(String sku) {
		this.invocations.incrementAndGet();
		return CompletableFuture.completedFuture("reserved " + sku);
	}

	CompletableFuture<String> queuedFuture(String sku) {
		return CompletableFuture.completedFuture("queued " + sku);
	}

	private Mono<Long> readModifyWrite(String sku) {
		String key = levelKey(sku);
		return this.redis.opsForValue()
			.get(key)
			.map(Long::parseLong)
			.defaultIfEmpty(0L)
			.flatMap((level) -> this.redis.opsForValue().set(key, Long.toString(level + 1)).thenReturn(level + 1));
	}

	/**
	 * Reads the fencing token of the hold that an enclosing locked call of the same key
	 * has, through a locked method of its own.
	 */
	public static class Nested {

		private final ReactiveStock stock;

		Nested(ReactiveStock stock) {
			this.stock = stock;
		}

		@DistributedLock(key = "'stock:' + #sku", waitTime = "0")
		public Mono<long[]> outerAndInnerTokens(String sku) {
			return ReactiveLockContext.fencingToken()
				.flatMap((outer) -> this.stock.fencingToken(sku).map((inner) -> new long[] { outer, inner }));
		}

	}

}
