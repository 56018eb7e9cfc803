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

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Locks calls of methods that return {@code Mono} or {@code Flux}: the returned publisher
 * acquires the lock when subscribed, invokes the method once it is held, and holds it,
 * renewed, until the method's publisher completes, errors or is cancelled. The work sees
 * the hold in its Reactor context ({@link dev.distlock.reactive.ReactiveLockContext}); a
 * nested locked call of the same key in the same chain re-enters it. A skipped call
 * completes empty; a fallback method returns the publisher to subscribe instead, and
 * {@code null} from either the method or the fallback counts as empty.
 */
final class PublisherLockedCalls {

	private final ReactiveLockedCalls calls;

	PublisherLockedCalls(ReactiveLockedCalls calls) {
		this.calls = calls;
	}

	/**
	 * Returns the publisher of a call.
	 * @param definition the lock of the called method
	 * @param invocation the call, not yet proceeded
	 * @param key the evaluated lock key
	 * @param flux whether the method returns {@code Flux} rather than {@code Mono}
	 * @return the publisher that runs the call under its lock
	 */
	Object invoke(LockDefinition definition, MethodInvocation invocation, String key, boolean flux) {
		if (flux) {
			return this.calls.flux(definition, invocation, key, (call) -> toFlux(call.proceed()),
					PublisherLockedCalls::toFlux);
		}
		return this.calls.mono(definition, invocation, key, (call) -> toMono(call.proceed()),
				PublisherLockedCalls::toMono);
	}

	@SuppressWarnings("unchecked")
	private static Mono<Object> toMono(@Nullable Object result) {
		return (result != null) ? (Mono<Object>) result : Mono.empty();
	}

	@SuppressWarnings("unchecked")
	private static Flux<Object> toFlux(@Nullable Object result) {
		return (result != null) ? (Flux<Object>) result : Flux.empty();
	}

}
