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

package dev.distlock.support;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.distlock.IllegalLockUpgradeException;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockContext;
import dev.distlock.reactive.ReactiveLockHandle;

/**
 * Runs reactive work under a lock, for the {@code withLock} of every
 * {@link dev.distlock.reactive.ReactiveLockClient}: the hold goes into the work's Reactor
 * context, the work is cancelled and ends with a {@link LockLeaseLostException} if the
 * lease is lost while it runs, and the lock is released however the work ends (complete,
 * error, cancel). A hold of the same key that the chain already has is re-entered without
 * a round trip, unless its lease is lost or the re-entry rules of lock kinds forbid it
 * ({@link ReentryRules}).
 */
public final class ReactiveLockedWork {

	private ReactiveLockedWork() {
	}

	/**
	 * Returns the work as a {@code Mono} run under the lock.
	 * @param <T> the result type
	 * @param redisKey the Redis key, to find a hold to re-enter
	 * @param options the options of this acquisition, checked against those of a hold to
	 * re-enter
	 * @param heldOptions the options a hold of the calling client was acquired with, or
	 * null for a hold of another client (re-entered without a check)
	 * @param lock acquires the lock when subscribed
	 * @param work the work, subscribed once the lock is held
	 * @return the work's result
	 */
	public static <T> Mono<T> mono(String redisKey, LockOptions options,
			Function<ReactiveLockHandle, @Nullable LockOptions> heldOptions, Mono<ReactiveLockHandle> lock,
			Mono<T> work) {
		return Mono.deferContextual((context) -> {
			Optional<ReactiveLockHandle> held = ReactiveLockContext.held(context, redisKey);
			if (held.isPresent()) {
				RuntimeException misuse = misuse(redisKey, heldOptions.apply(held.get()), options);
				if (misuse != null) {
					return Mono.error(misuse);
				}
				return held.get().isLeaseLost() ? Mono.error(lost(held.get())) : work;
			}
			// A hold released already (work that outlived its withLock, with its
			// context) is not re-entered: the lock is acquired anew.
			return Mono.usingWhen(lock,
					(handle) -> Mono.firstWithSignal(work.contextWrite((c) -> ReactiveLockContext.with(c, handle)),
							handle.leaseLost().then(Mono.error(() -> lost(handle)))),
					ReactiveLockHandle::release, ReactiveLockedWork::releaseAfterError,
					ReactiveLockedWork::releaseQuietly);
		});
	}

	/**
	 * Returns the work as a {@code Flux} run under the lock, as
	 * {@link #mono(String, LockOptions, Function, Mono, Mono)}.
	 * @param <T> the element type
	 * @param redisKey the Redis key, to find a hold to re-enter
	 * @param options the options of this acquisition
	 * @param heldOptions the options a hold of the calling client was acquired with, or
	 * null for a hold of another client
	 * @param lock acquires the lock when subscribed
	 * @param work the work, subscribed once the lock is held
	 * @return the work's elements
	 */
	public static <T> Flux<T> flux(String redisKey, LockOptions options,
			Function<ReactiveLockHandle, @Nullable LockOptions> heldOptions, Mono<ReactiveLockHandle> lock,
			Flux<T> work) {
		return Flux.deferContextual((context) -> {
			Optional<ReactiveLockHandle> held = ReactiveLockContext.held(context, redisKey);
			if (held.isPresent()) {
				RuntimeException misuse = misuse(redisKey, heldOptions.apply(held.get()), options);
				if (misuse != null) {
					return Flux.error(misuse);
				}
				return held.get().isLeaseLost() ? Flux.error(lost(held.get())) : work;
			}
			return Flux.usingWhen(lock,
					(handle) -> work.contextWrite((c) -> ReactiveLockContext.with(c, handle))
						.takeUntilOther(handle.leaseLost().thenReturn(Boolean.TRUE))
						.concatWith(Mono.defer(() -> handle.isLeaseLost() ? Mono.error(lost(handle)) : Mono.empty())),
					ReactiveLockHandle::release, ReactiveLockedWork::releaseAfterError,
					ReactiveLockedWork::releaseQuietly);
		});
	}

	/**
	 * Returns why the chain may not re-enter its hold with the options (write inside
	 * read, another kind of lock: {@link ReentryRules}), or null if it may.
	 */
	private static @Nullable RuntimeException misuse(String redisKey, @Nullable LockOptions held, LockOptions options) {
		if (held == null) {
			return null;
		}
		try {
			ReentryRules.check(redisKey, held, options);
			return null;
		}
		catch (IllegalLockUpgradeException | LockMisconfigurationException ex) {
			return ex;
		}
	}

	private static LockLeaseLostException lost(ReactiveLockHandle handle) {
		return new LockLeaseLostException(handle.key(), handle.name(), handle.leaseTime(), Duration.ZERO);
	}

	/**
	 * Releases after the work failed: the work's error stands, with a failed release
	 * attached to it as suppressed.
	 */
	private static Mono<Void> releaseAfterError(ReactiveLockHandle handle, Throwable error) {
		return handle.release().onErrorResume((ex) -> {
			if (ex != error) {
				error.addSuppressed(ex);
			}
			return Mono.empty();
		});
	}

	/**
	 * Releases after the work was cancelled: nobody is left to tell of a failed release,
	 * which is retried in the background and reported to the listeners.
	 */
	private static Mono<Void> releaseQuietly(ReactiveLockHandle handle) {
		return handle.release().onErrorResume((ex) -> Mono.empty());
	}

}
