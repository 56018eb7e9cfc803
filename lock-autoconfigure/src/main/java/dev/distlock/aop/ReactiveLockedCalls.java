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

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.aop.ProxyMethodInvocation;

import dev.distlock.DistributedLockException;
import dev.distlock.InvalidLockKeyException;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.reactive.ReactiveLockClient;

/**
 * Runs calls of locked methods whose work ends after they return under a lock of the
 * {@link ReactiveLockClient}, for the classes that adapt each return type
 * ({@link PublisherLockedCalls}, {@link CompletionStageLockedCalls}): the lock is
 * acquired when the result is subscribed, the method is invoked only once it is held, and
 * the lock is held until the work ends. Each subscription invokes the method anew,
 * through a clone of the call, so that the advice after this one runs each time.
 * <p>
 * An acquisition that fails (before the method was invoked) is handed to the lock's
 * {@link LockFailurePolicy}: the error for {@code THROW}, the adapter's empty result for
 * {@code SKIP}, the fallback method's result for {@code FALLBACK}. What the work itself
 * signals, and a lease lost while it runs, reach the subscriber unchanged.
 */
final class ReactiveLockedCalls {

	private final Supplier<ReactiveLockClient> client;

	private final LockFailureHandler failureHandler;

	ReactiveLockedCalls(Supplier<ReactiveLockClient> client, LockFailureHandler failureHandler) {
		this.client = client;
		this.failureHandler = failureHandler;
	}

	/**
	 * Returns a {@code Mono} that runs the call under its lock.
	 * @param definition the lock of the called method
	 * @param invocation the call, not yet proceeded
	 * @param key the evaluated lock key
	 * @param invoke invokes the method and adapts its result; called once the lock is
	 * held
	 * @param adapt adapts what a fallback method returned, or {@code null} for a skipped
	 * call
	 */
	<T> Mono<T> mono(LockDefinition definition, MethodInvocation invocation, String key, Invoker<Mono<T>> invoke,
			Function<@Nullable Object, Mono<T>> adapt) {
		ReactiveLockClient lockClient = this.client.get();
		LockOptions options = options(lockClient, definition);
		Supplier<MethodInvocation> calls = calls(invocation);
		return Mono.defer(() -> {
			AtomicBoolean invoked = new AtomicBoolean();
			Mono<T> work = Mono.defer(() -> {
				invoked.set(true);
				return call(invoke, calls.get(), Mono::error);
			});
			return lockClient.withLock(key, options, work)
				.onErrorResume((ex) -> !invoked.get(),
						(ex) -> notLocked(definition, invocation, ex, adapt, Mono::error));
		});
	}

	/**
	 * Returns a {@code Flux} that runs the call under its lock, as
	 * {@link #mono(LockDefinition, MethodInvocation, String, Invoker, Function)}.
	 */
	<T> Flux<T> flux(LockDefinition definition, MethodInvocation invocation, String key, Invoker<Flux<T>> invoke,
			Function<@Nullable Object, Flux<T>> adapt) {
		ReactiveLockClient lockClient = this.client.get();
		LockOptions options = options(lockClient, definition);
		Supplier<MethodInvocation> calls = calls(invocation);
		return Flux.defer(() -> {
			AtomicBoolean invoked = new AtomicBoolean();
			Flux<T> work = Flux.defer(() -> {
				invoked.set(true);
				return call(invoke, calls.get(), Flux::error);
			});
			return lockClient.withLock(key, options, work)
				.onErrorResume((ex) -> !invoked.get(),
						(ex) -> notLocked(definition, invocation, ex, adapt, Flux::error));
		});
	}

	private static LockOptions options(ReactiveLockClient client, LockDefinition definition) {
		return definition.options(client.defaultOptions(definition.name())).withName(definition.name());
	}

	private static Supplier<MethodInvocation> calls(MethodInvocation invocation) {
		return (invocation instanceof ProxyMethodInvocation proxied) ? proxied::invocableClone : () -> invocation;
	}

	private static <P> P call(Invoker<P> invoke, MethodInvocation invocation, Function<Throwable, P> error) {
		try {
			return invoke.invoke(invocation);
		}
		catch (Throwable ex) {
			return error.apply(ex);
		}
	}

	private <P> P notLocked(LockDefinition definition, MethodInvocation invocation, Throwable failure,
			Function<@Nullable Object, P> adapt, Function<Throwable, P> error) {
		if (failure instanceof LockNotAcquiredException || failure instanceof LockUnavailableException) {
			return call(
					(call) -> adapt
						.apply(this.failureHandler.handle(definition, call, (DistributedLockException) failure, null)),
					invocation, error);
		}
		if (failure instanceof InvalidLockKeyException) {
			return error.apply(new LockKeyExpressionException(definition.method(), definition.keyExpression(),
					"yielded a key that was refused: " + failure.getMessage(), failure));
		}
		return error.apply(failure);
	}

	/**
	 * Invokes a locked method and adapts what it returns.
	 *
	 * @param <P> the adapted result
	 */
	@FunctionalInterface
	interface Invoker<P> {

		/**
		 * Invokes the method.
		 * @param invocation the call to proceed with
		 * @return the adapted result
		 * @throws Throwable what the method threw
		 */
		P invoke(MethodInvocation invocation) throws Throwable;

	}

}
