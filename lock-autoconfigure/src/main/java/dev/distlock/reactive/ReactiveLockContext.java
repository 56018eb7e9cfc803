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

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks that the current reactive chain holds, carried in its Reactor {@link Context}
 * rather than in a thread: {@link ReactiveLockClient#withLock withLock} and
 * {@code @DistributedLock} methods returning {@code Mono} or {@code Flux} put the hold
 * there for the work they run, so that the work can read its fencing token on any thread:
 * <pre class="code">
 * return ReactiveLockContext.fencingToken()
 *     .flatMap((fence) -&gt; accounts.debit(id, cents, fence));
 * </pre>
 */
public final class ReactiveLockContext {

	private static final Class<ReactiveLockContext> KEY = ReactiveLockContext.class;

	private ReactiveLockContext() {
	}

	/**
	 * Returns the innermost lock held by the current chain, not yet released.
	 * @return the lock, or empty outside locked work
	 */
	public static Mono<ReactiveLockHandle> current() {
		return Mono.deferContextual((context) -> Mono
			.justOrEmpty(holds(context).stream().filter((handle) -> !handle.isReleased()).findFirst()));
	}

	/**
	 * Returns the fencing token of the innermost lock held by the current chain.
	 * @return the fencing token; errors with {@link IllegalStateException} outside locked
	 * work
	 */
	public static Mono<Long> fencingToken() {
		return current().map(ReactiveLockHandle::fencingToken)
			.switchIfEmpty(Mono.error(() -> new IllegalStateException("No distributed lock is held by this "
					+ "reactive chain: read ReactiveLockContext inside withLock or a @DistributedLock method")));
	}

	/**
	 * Returns the hold of a Redis key that the chain with the given context holds, for
	 * re-entry: never one released already (work that outlives its lock may still carry
	 * its context).
	 * @param context the chain's context
	 * @param redisKey the Redis key, with the client's prefix
	 * @return the hold, if the chain holds the key
	 */
	public static Optional<ReactiveLockHandle> held(ContextView context, String redisKey) {
		return holds(context).stream()
			.filter((handle) -> handle.key().equals(redisKey) && !handle.isReleased())
			.findFirst();
	}

	/**
	 * Returns the context with the hold added as the innermost one; for clients and
	 * interceptors that run work under a lock.
	 * @param context the context of the work
	 * @param handle the lock now held
	 * @return the context to write to the work
	 */
	public static Context with(Context context, ReactiveLockHandle handle) {
		List<ReactiveLockHandle> holds = new ArrayList<>(holds(context).size() + 1);
		holds.add(handle);
		holds.addAll(holds(context));
		return context.put(KEY, List.copyOf(holds));
	}

	@SuppressWarnings("unchecked")
	private static List<ReactiveLockHandle> holds(ContextView context) {
		List<ReactiveLockHandle> holds = context.getOrDefault(KEY, null);
		return (holds != null) ? holds : List.of();
	}

}
