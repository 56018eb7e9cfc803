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

import java.util.function.Function;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import dev.distlock.reactive.ReactiveLockClient;

/**
 * Runs {@link dev.distlock.DistributedLock @DistributedLock} Kotlin {@code suspend}
 * functions and methods returning a {@code Flow} under their lock, through the
 * {@link ReactiveLockClient}, so that no thread is blocked while acquiring or waiting.
 * <p>
 * Spring's proxies invoke a suspend function as a cold {@code Mono} (a {@code Flux} if it
 * returns a {@code Flow}) and await what the interceptors return; the lock is acquired
 * when it is awaited, held across every suspension of the body, renewed while it runs,
 * and released when the body returns, throws or is cancelled. A {@code Flow} is locked
 * from the start of its collection until it completes or its collector stops (Reactor's
 * bridge may run it ahead of a slow collector by a buffer). The hold is in the Reactor
 * context, which kotlinx-coroutines carries as the coroutine's {@code ReactorContext}:
 * nested locked calls of the same key in the same coroutine re-enter it, and
 * {@code ReactiveLockContext} reads it in the body. The method itself is invoked only
 * once the lock is held, and a failure to acquire it is handled as for reactive methods
 * ({@link ReactiveLockedCalls}).
 */
final class CoroutineLocking {

	private final Supplier<ReactiveLockedCalls> calls;

	CoroutineLocking(Supplier<ReactiveLockedCalls> calls) {
		this.calls = calls;
	}

	/**
	 * Returns the call locked: a {@code Mono} or {@code Flux} for a suspend function (the
	 * proxy awaits it), a {@code Flow} for a method returning one.
	 * @param definition the lock of the method
	 * @param key the evaluated lock key
	 * @param invocation the call
	 * @return the locked work, in the form the proxy expects
	 */
	Object invoke(LockDefinition definition, String key, MethodInvocation invocation) {
		if (KotlinDetector.isSuspendingFunction(invocation.getMethod())) {
			Flux<Object> locked = locked(definition, key, invocation, (result) -> (Publisher<?>) result);
			return CoroutineMethods.returnsFlow(definition.method()) ? locked : locked.singleOrEmpty();
		}
		ReactiveAdapter flow = ReactiveAdapterRegistry.getSharedInstance()
			.getAdapter(invocation.getMethod().getReturnType());
		if (flow == null) {
			throw new IllegalStateException("No ReactiveAdapter for the Flow returned by " + definition.method());
		}
		return flow.fromPublisher(locked(definition, key, invocation, (result) -> flow.toPublisher(result)));
	}

	private Flux<Object> locked(LockDefinition definition, String key, MethodInvocation invocation,
			Function<Object, Publisher<?>> publisher) {
		return this.calls.get()
			.flux(definition, invocation, key, (call) -> Flux.from(publisher.apply(proceed(call, definition))),
					(instead) -> (instead != null) ? Flux.from(publisher.apply(instead)) : Flux.empty());
	}

	private static Object proceed(MethodInvocation call, LockDefinition definition) throws Throwable {
		Object result = call.proceed();
		if (result == null) {
			throw new IllegalStateException(definition.method() + " returned null instead of a Flow");
		}
		return result;
	}

}
