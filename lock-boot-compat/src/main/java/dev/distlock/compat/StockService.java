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

import java.util.concurrent.Callable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

import dev.distlock.DistributedLock;

/**
 * Counts per item in Redis with a read-modify-write (GET, then SET) that is only correct
 * under the item's lock: two callers that ran it at once, in one instance or in two,
 * would both read the same count and one increment would be lost.
 */
@Service
public class StockService {

	private final StringRedisTemplate redis;

	StockService(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/**
	 * Adds one to an item's count, under the item's lock.
	 * @param sku the item
	 * @return the new count
	 */
	@DistributedLock(key = "'compat:sku:' + #sku", name = "stock", waitTime = "10s")
	public long increment(String sku) {
		long next = count(sku) + 1;
		this.redis.opsForValue().set(countKey(sku), Long.toString(next));
		return next;
	}

	/**
	 * Runs some work under an item's lock.
	 * @param <T> the work's result
	 * @param sku the item
	 * @param work the work
	 * @return what the work returned
	 * @throws Exception what the work threw
	 */
	@DistributedLock(key = "'compat:sku:' + #sku", name = "stock", waitTime = "10s")
	public <T> T whileLocked(String sku, Callable<T> work) throws Exception {
		return work.call();
	}

	/**
	 * Reads an item's count under its lock, without waiting: a caller that finds the lock
	 * held gets a {@link dev.distlock.LockNotAcquiredException} at once.
	 * @param sku the item
	 * @return the count
	 */
	@DistributedLock(key = "'compat:sku:' + #sku", name = "stock-report", waitTime = "0s")
	public long report(String sku) {
		return count(sku);
	}

	private long count(String sku) {
		String count = this.redis.opsForValue().get(countKey(sku));
		return (count != null) ? Long.parseLong(count) : 0;
	}

	static String countKey(String sku) {
		return "compat:count:" + sku;
	}

}
