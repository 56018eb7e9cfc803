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

package dev.distlock.redis;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.redis.protocol.ReactiveLockCommands;
import dev.distlock.support.ReactiveLockedWork;

/**
 * {@link ReactiveLockClient} on Redis, built on a {@link RedisLockClient}: the same keys,
 * scripts, fencing counter, owner tokens and queue, so that reactive and blocking callers
 * of one application exclude each other and hand locks over to each other; the blocking
 * client's renewer renews reactive holds, its subscription delivers their hand-over
 * messages, and its monitor lists them. Commands go through Spring Data Redis's reactive
 * API, so no thread is blocked while acquiring, waiting or releasing. Each acquisition
 * goes to Redis with its own owner token (reactive work is not passed locks within the
 * client).
 * <p>
 * Grants are not acknowledged by replicas here: a client built with
 * {@code distlock.replication.min-replicas-acked} is refused.
 */
public final class ReactiveRedisLockClient implements ReactiveLockClient {

	private final RedisLockClient client;

	private final ReactiveAcquirer acquirer;

	/**
	 * Creates the reactive client of a Redis lock client.
	 * @param client the blocking client whose locks, renewal and subscription it shares
	 * @param redis the reactive template on the same connection factory as the client's
	 * @throws IllegalStateException if grants must be acknowledged by replicas
	 */
	public ReactiveRedisLockClient(RedisLockClient client, ReactiveStringRedisTemplate redis) {
		if (client.commands().acknowledgement().isRequired()) {
			throw new IllegalStateException("The reactive lock client cannot have grants acknowledged by replicas "
					+ "(distlock.replication.min-replicas-acked): set it to 0, or lock through the blocking "
					+ "LockClient, whose grants WAIT for replicas");
		}
		this.client = client;
		this.acquirer = client.reactiveAcquirer(redis);
	}

	@Override
	public LockOptions defaultOptions() {
		return this.client.defaultOptions();
	}

	@Override
	public LockOptions defaultOptions(String name) {
		return this.client.defaultOptions(name);
	}

	@Override
	public Mono<ReactiveLockHandle> tryLock(String key, LockOptions options) {
		return Mono.defer(() -> this.acquirer.acquire(redisKey(key), options));
	}

	@Override
	public Mono<ReactiveLockHandle> lock(String key, LockOptions options) {
		return Mono.defer(() -> this.acquirer.lock(redisKey(key), options));
	}

	@Override
	public <T> Mono<T> withLock(String key, LockOptions options, Mono<T> work) {
		return Mono.defer(() -> ReactiveLockedWork.mono(redisKey(key), options, ReactiveRedisLockClient::options,
				lock(key, options), work));
	}

	@Override
	public <T> Flux<T> withLock(String key, LockOptions options, Flux<T> work) {
		return Flux.defer(() -> ReactiveLockedWork.flux(redisKey(key), options, ReactiveRedisLockClient::options,
				lock(key, options), work));
	}

	/** The options a hold of this client was acquired with, null for another's. */
	private static @Nullable LockOptions options(ReactiveLockHandle handle) {
		return (handle instanceof ReactiveRedisLockHandle hold) ? hold.options() : null;
	}

	private String redisKey(String key) {
		return this.client.keyspace().lockKey(key);
	}

}
