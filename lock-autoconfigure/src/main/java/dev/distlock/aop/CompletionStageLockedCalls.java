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

import java.util.concurrent.CompletionStage;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Locks calls of methods that return {@code CompletionStage} or
 * {@code CompletableFuture}: the lock is acquired without blocking the caller, the method
 * is invoked once it is held, and the lock is held until the stage the method returned
 * completes. The caller gets a {@code CompletableFuture} at once; cancelling it gives up
 * the wait, or cancels the method's stage and releases the lock.
 * <p>
 * The method is invoked on Reactor's bounded elastic scheduler, never on the Redis
 * client's event loop that reports the grant: the part of such methods that runs before
 * they return often blocks. The stage's work runs wherever the method puts it, and does
 * not see the lock in a {@link dev.distlock.LockContext} (it belongs to no thread). A
 * skipped call completes with {@code null}; a fallback method returns the stage to
 * complete with instead.
 */
final class CompletionStageLockedCalls {

	private final ReactiveLockedCalls calls;

	CompletionStageLockedCalls(ReactiveLockedCalls calls) {
		this.calls = calls;
	}

	/**
	 * Returns the future of a call.
	 * @param definition the lock of the called method
	 * @param invocation the call, not yet proceeded
	 * @param key the evaluated lock key
	 * @return the future that completes as the method's stage does, once the lock is
	 * released
	 */
	Object invoke(LockDefinition definition, MethodInvocation invocation, String key) {
		return this.calls
			.mono(definition, invocation, key,
					(call) -> Mono.defer(() -> proceed(call)).subscribeOn(Schedulers.boundedElastic()),
					CompletionStageLockedCalls::toMono)
			// The caller's dependent stages never run on the Redis client's event loop.
			.publishOn(Schedulers.boundedElastic())
			.toFuture();
	}

	private static Mono<Object> proceed(MethodInvocation call) {
		try {
			return toMono(call.proceed());
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	@SuppressWarnings("unchecked")
	private static Mono<Object> toMono(@Nullable Object stage) {
		return (stage != null) ? Mono.fromCompletionStage((CompletionStage<Object>) stage) : Mono.empty();
	}

}
