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

package dev.distlock.sample.stock;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Service;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.fencing.FencedRedis;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Keeps the stock of each SKU as a plain number in Redis ({@code stock:sku:<id>}) and
 * changes it with a read-modify-write: read the number, check it, write the new number.
 * Two concurrent decrements of the same SKU would both read the same number and one sale
 * would be lost, so every write holds the lock {@code lock:sku:<id>}: one lock per item,
 * never one for the whole shop.
 * <p>
 * Every write goes through distlock's {@link FencedRedis}: it applies only if no newer
 * fencing token than the lock's is stored for the key, and stores the token with it (in
 * {@code {stock:sku:<id>}:fence}). A request whose lease ran out while it was paused (a
 * long GC, a stalled VM), once a newer holder has written, is refused with a
 * {@link StaleFencingTokenException} instead of overwriting the newer stock.
 * <p>
 * (Redis could decrement atomically with {@code DECRBY} or a script; the
 * read-modify-write stands for the business logic that real services run between the read
 * and the write.)
 */
@Service
public class StockService {

	private final StringRedisTemplate redis;

	private final FencedRedis fencedRedis;

	StockService(StringRedisTemplate redis, FencedRedis fencedRedis) {
		this.redis = redis;
		this.fencedRedis = fencedRedis;
	}

	/**
	 * Returns the current stock of a SKU.
	 * @param skuId the SKU
	 * @return the stock
	 * @throws SkuNotFoundException if the SKU has no stock record
	 */
	public StockLevel get(long skuId) {
		return new StockLevel(skuId, read(skuId));
	}

	/**
	 * Sets the stock of a SKU, creating its record if needed.
	 * @param skuId the SKU
	 * @param quantity the new stock, not negative
	 * @return the stock
	 */
	@DistributedLock(name = "stock", key = "'lock:sku:' + #skuId", waitTime = "${sample.stock.lock-wait-time:5s}")
	public StockLevel set(long skuId, long quantity) {
		this.fencedRedis.set(stockKey(skuId), Long.toString(quantity));
		return new StockLevel(skuId, quantity);
	}

	/**
	 * Takes items out of stock, never going below zero.
	 * @param skuId the SKU
	 * @param quantity how many items to take, at least one
	 * @return the stock left
	 * @throws SkuNotFoundException if the SKU has no stock record
	 * @throws OutOfStockException if fewer than {@code quantity} items are left; nothing
	 * is taken
	 * @throws dev.distlock.LockNotAcquiredException if other requests kept the SKU locked
	 * for longer than {@code sample.stock.lock-wait-time}
	 */
	@DistributedLock(name = "stock", key = "'lock:sku:' + #skuId", waitTime = "${sample.stock.lock-wait-time:5s}")
	public StockLevel decrement(long skuId, long quantity) {
		long current = read(skuId);
		if (current < quantity) {
			throw new OutOfStockException(skuId, current, quantity);
		}
		long remaining = current - quantity;
		this.fencedRedis.set(stockKey(skuId), Long.toString(remaining));
		return new StockLevel(skuId, remaining);
	}

	/**
	 * Moves items from the stock of one SKU to another's, holding the locks of both SKUs
	 * together: taken all or nothing, in one fixed order whatever the direction, so that
	 * moves in opposite directions at the same time cannot deadlock.
	 * @param fromSkuId the SKU whose stock is taken
	 * @param toSkuId the SKU whose stock is increased
	 * @param quantity how many items to move, at least one
	 * @return the stock left of {@code fromSkuId}
	 * @throws SkuNotFoundException if either SKU has no stock record
	 * @throws OutOfStockException if fewer than {@code quantity} items are left; nothing
	 * is moved
	 */
	@DistributedLock(name = "stock-move", keys = { "'lock:sku:' + #fromSkuId", "'lock:sku:' + #toSkuId" },
			waitTime = "${sample.stock.lock-wait-time:5s}")
	public StockLevel move(long fromSkuId, long toSkuId, long quantity) {
		long from = read(fromSkuId);
		long to = read(toSkuId);
		if (from < quantity) {
			throw new OutOfStockException(fromSkuId, from, quantity);
		}
		if (fromSkuId == toSkuId) {
			return new StockLevel(fromSkuId, from);
		}
		// Two locks, two tokens: each SKU's stock is written with the token of its own
		// lock.
		writeUnderLockOf(fromSkuId, from - quantity);
		writeUnderLockOf(toSkuId, to + quantity);
		return new StockLevel(fromSkuId, from - quantity);
	}

	private void writeUnderLockOf(long skuId, long quantity) {
		String lockKey = LockContext.current()
			.orElseThrow()
			.keys()
			.stream()
			.filter((key) -> key.endsWith(lockKey(skuId)))
			.findFirst()
			.orElseThrow();
		this.fencedRedis.forLockKey(lockKey).set(stockKey(skuId), Long.toString(quantity));
	}

	private long read(long skuId) {
		String value = this.redis.opsForValue().get(stockKey(skuId));
		if (value == null) {
			throw new SkuNotFoundException(skuId);
		}
		return Long.parseLong(value);
	}

	private static String lockKey(long skuId) {
		return "lock:sku:" + skuId;
	}

	private static String stockKey(long skuId) {
		return "stock:sku:" + skuId;
	}

}
