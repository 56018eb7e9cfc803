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

package dev.distlock.compat;

import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Service;

import dev.distlock.DistributedLock;

/**
 * The counts of {@link StockService}, in a reactive pipeline. Reactive grants cannot wait
 * for replicas to acknowledge them, so the application has this service only where
 * {@code distlock.replication.min-replicas-acked} is 0, as distlock requires.
 */
@Service
@ConditionalOnProperty(name = "distlock.replication.min-replicas-acked", havingValue = "0", matchIfMissing = true)
public class ReactiveStockService {

	private final ReactiveStringRedisTemplate redis;

	ReactiveStockService(ReactiveStringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Adds one to an item's count, under the item's lock, held until the returned
	 * {@link Mono} completes.
	 * @param sku the item
	 * @return the new count
	 */
	@DistributedLock(key = "'compat:sku:' + #sku", name = "stock", waitTime = "10s")
	public Mono<Long> increment(String sku) {
		String key = StockService.countKey(sku);
		return this.redis.opsForValue()
			.get(key)
			.map(Long::parseLong)
			.defaultIfEmpty(0L)
			.map((count) -> count + 1)
			.flatMap((next) -> this.redis.opsForValue().set(key, Long.toString(next)).thenReturn(next));
	}

}
