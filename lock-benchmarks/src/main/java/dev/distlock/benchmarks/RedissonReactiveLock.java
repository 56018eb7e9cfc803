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

package dev.distlock.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Mono;

import org.redisson.api.RLockReactive;
import org.redisson.api.RedissonReactiveClient;

/**
 * Redisson's reactive lock: {@code redisson.reactive().getLock(key)}, {@code lock(id)}
 * and {@code unlock(id)} around the work, released however the work ends. A reactive lock
 * has no thread to own it, so Redisson takes the owner as an explicit "thread id"; each
 * operation gets its own, since operations sharing one would re-enter each other's holds.
 * {@code lock(id)} has no lease time, so the watchdog renews it (30 s, every 10 s), as
 * distlock's auto-renewed lease.
 */
final class RedissonReactiveLock implements ReactiveContender {

	static final String NAME = "Redisson RLockReactive";

	private final RedissonReactiveClient redisson;

	private final AtomicLong ids = new AtomicLong();

	RedissonReactiveLock(RedissonReactiveClient redisson) {
		this.redisson = redisson;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public <T> Mono<T> withLock(String key, Mono<T> work) {
		return Mono.defer(() -> {
			long id = this.ids.incrementAndGet();
			RLockReactive lock = this.redisson.getLock(key);
			return Mono.usingWhen(lock.lock(id).thenReturn(lock), (held) -> work, (held) -> held.unlock(id));
		});
	}

}
