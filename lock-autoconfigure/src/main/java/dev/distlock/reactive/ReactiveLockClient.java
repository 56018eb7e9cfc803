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

package dev.distlock.reactive;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.distlock.LockOptions;

/**
 * Acquires distributed locks for reactive work, without blocking a thread: the commands
 * go through Spring Data Redis's reactive API, waiting is a hand-over message or a
 * backoff on a scheduler, and the hold belongs to the work rather than to a thread.
 * Auto-configured when Reactor is on the classpath. <pre class="code">
 * return lockClient.withLock("lock:sku:" + skuId, lockClient.defaultOptions(),
 *         stock.decrement(skuId));
 * </pre> Inside {@code withLock}, the hold is in the Reactor {@code Context}
 * ({@link ReactiveLockContext}): a nested {@code withLock} of the same key in the same
 * chain re-enters it without a round trip.
 */
public interface ReactiveLockClient {

	/**
	 * Returns the options used where a call gives none: {@code distlock.wait-time} and
	 * {@code distlock.lease-time}.
	 * @return the default options
	 */
	LockOptions defaultOptions();

	/**
	 * Returns the options of locks of one name, as
	 * {@link dev.distlock.LockClient#defaultOptions(String)}.
	 * @param name the logical name of the lock
	 * @return the options of locks of that name, with that name
	 */
	default LockOptions defaultOptions(String name) {
		return defaultOptions().withName(name);
	}

	/**
	 * Acquires the lock, waiting up to the options' wait time while another holder has
	 * it. Cancelling the returned {@code Mono} while it waits gives up its place in the
	 * lock's queue.
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @return the held lock, to be released with {@link ReactiveLockHandle#release()}, or
	 * empty if it was not acquired within the wait time; errors with
	 * {@link dev.distlock.LockUnavailableException} if Redis cannot be reached and
	 * {@link dev.distlock.InvalidLockKeyException} if the key is refused
	 */
	Mono<ReactiveLockHandle> tryLock(String key, LockOptions options);

	/**
	 * Acquires the lock or errors, waiting up to the options' wait time.
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @return the held lock; errors with {@link dev.distlock.LockNotAcquiredException} if
	 * it was not acquired within the wait time, and as {@link #tryLock}
	 */
	Mono<ReactiveLockHandle> lock(String key, LockOptions options);

	/**
	 * Runs the work while holding the lock: acquires it when subscribed, renews it while
	 * the work runs, and releases it when the work completes, errors or is cancelled. If
	 * the lease is lost while the work runs, the work is cancelled and the result errors
	 * with {@link dev.distlock.LockLeaseLostException}. A key already held by an
	 * enclosing {@code withLock} of the same chain is re-entered without a round trip.
	 * @param <T> the result type
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @param work the work to run under the lock, subscribed once the lock is held
	 * @return the work's result; errors with
	 * {@link dev.distlock.LockNotAcquiredException} if the lock was not acquired within
	 * the wait time (the work is then never subscribed), and as {@link #tryLock}
	 */
	<T> Mono<T> withLock(String key, LockOptions options, Mono<T> work);

	/**
	 * Runs the work while holding the lock, as
	 * {@link #withLock(String, LockOptions, Mono)}: the lock is held until the
	 * {@code Flux} completes, errors or is cancelled.
	 * @param <T> the element type
	 * @param key the lock key
	 * @param options how long to wait and how long the lease lasts
	 * @param work the work to run under the lock
	 * @return the work's elements
	 */
	<T> Flux<T> withLock(String key, LockOptions options, Flux<T> work);

	/**
	 * Runs the work while holding the lock, with the {@linkplain #defaultOptions()
	 * default options}.
	 * @param <T> the result type
	 * @param key the lock key
	 * @param work the work to run under the lock
	 * @return the work's result
	 */
	default <T> Mono<T> withLock(String key, Mono<T> work) {
		return withLock(key, defaultOptions(), work);
	}

	/**
	 * Runs the work while holding the lock, with the {@linkplain #defaultOptions()
	 * default options}.
	 * @param <T> the element type
	 * @param key the lock key
	 * @param work the work to run under the lock
	 * @return the work's elements
	 */
	default <T> Flux<T> withLock(String key, Flux<T> work) {
		return withLock(key, defaultOptions(), work);
	}

}
