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

import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveHashOperations;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * The work the reactive scenarios do under each lock, and the check that the lock
 * excluded: a non-atomic increment of a counter per key in Redis ({@code HGET}, then
 * {@code HSET} of the value plus one, two round trips apart), so that two holders of one
 * key at once lose an increment; and a count of the operations inside the work per key in
 * this JVM, which sees every overlap as it happens. One instance per contender and load,
 * with its own Redis hash.
 */
final class CountedWork {

	private final ReactiveHashOperations<String, String, String> hash;

	private final String hashKey;

	private final String lockPrefix;

	private final AtomicIntegerArray inside;

	private final LongAdder increments = new LongAdder();

	private final LongAdder overlaps = new LongAdder();

	private final LongAdder heldNanos = new LongAdder();

	CountedWork(ReactiveStringRedisTemplate redis, String prefix, int keys) {
		this.hash = redis.opsForHash();
		this.hashKey = prefix + "counters";
		this.lockPrefix = prefix + "lock:";
		this.inside = new AtomicIntegerArray(keys);
	}

	String lockKey(int key) {
		return this.lockPrefix + key;
	}

	/**
	 * Returns the increment of one key's counter, done when subscribed.
	 * @param key the key's index
	 * @return the counter's new value
	 */
	Mono<Long> increment(int key) {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			if (this.inside.incrementAndGet(key) != 1) {
				this.overlaps.increment();
			}
			String field = Integer.toString(key);
			return this.hash.get(this.hashKey, field)
				.map(Long::parseLong)
				.defaultIfEmpty(0L)
				.flatMap((value) -> this.hash.put(this.hashKey, field, Long.toString(value + 1)).thenReturn(value + 1))
				.doOnSuccess((value) -> {
					this.inside.decrementAndGet(key);
					this.increments.increment();
					this.heldNanos.add(System.nanoTime() - start);
				});
		});
	}

	/** Operations that entered the work while another held the same key. */
	long overlaps() {
		return this.overlaps.sum();
	}

	/** Time spent inside the work, summed over all operations. */
	long heldNanos() {
		return this.heldNanos.sum();
	}

	/**
	 * Reads the counters: increments done minus the sum of the counters in Redis.
	 * @return the lost increments, 0 if every holder excluded the others
	 */
	long lostIncrements() {
		List<String> values = this.hash.values(this.hashKey).collectList().block();
		long sum = (values != null) ? values.stream().mapToLong(Long::parseLong).sum() : 0;
		return this.increments.sum() - sum;
	}

}
