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

package dev.distlock.topology.contract;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.DistributedLock;
import dev.distlock.LockContext;
import dev.distlock.LockHandle;

/**
 * A shop's stock per SKU, kept in Redis and counted up by a read-modify-write that is
 * only correct under the lock {@code lock:sku:<sku>}; every hold is recorded with the
 * fencing token it was given. Other methods hold the same lock until told to let go, to
 * show what waiting instances see.
 */
public class SkuStock {

	private final StringRedisTemplate redis;

	private final Map<String, Queue<Hold>> holds = new ConcurrentHashMap<>();

	SkuStock(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** Counts the stock up by one and records the hold; waits up to a minute. */
	@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "1m")
	public long increment(String sku) {
		long start = System.nanoTime();
		String stock = this.redis.opsForValue().get("stock:" + sku);
		this.redis.opsForValue().set("stock:" + sku, String.valueOf((stock != null) ? Long.parseLong(stock) + 1 : 1));
		long token = LockContext.fencingToken();
		this.holds.computeIfAbsent(sku, (key) -> new ConcurrentLinkedQueue<>())
			.add(new Hold(start, System.nanoTime(), token));
		return token;
	}

	/** Holds the lock, on an auto-renewed lease, until told to let go. */
	@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "0")
	public Hold holdUntilReleased(String sku, CountDownLatch held, CountDownLatch release) throws InterruptedException {
		return hold(held, release);
	}

	/** Holds the lock, on a fixed lease of one second, until told to let go. */
	@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "0", leaseTime = "1s")
	public Hold holdOnFixedLeaseUntilReleased(String sku, CountDownLatch held, CountDownLatch release)
			throws InterruptedException {
		return hold(held, release);
	}

	/** Takes the lock within 300 ms and returns its fencing token. */
	@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "300ms")
	public long lockWithinShortWait(String sku) {
		return LockContext.fencingToken();
	}

	/** Takes the lock within 2.5 s and returns its fencing token. */
	@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "2500ms")
	public long lockWithinTwoAndAHalfSeconds(String sku) {
		return LockContext.fencingToken();
	}

	/**
	 * Returns the stock of a SKU as Redis has it.
	 * @param sku the SKU
	 * @return the stock, 0 if never counted
	 */
	public long stock(String sku) {
		String stock = this.redis.opsForValue().get("stock:" + sku);
		return (stock != null) ? Long.parseLong(stock) : 0;
	}

	/**
	 * Returns the holds of {@link #increment(String)} for a SKU in this instance.
	 * @param sku the SKU
	 * @return the holds, in no particular order
	 */
	public List<Hold> holds(String sku) {
		return List.copyOf(this.holds.getOrDefault(sku, new ConcurrentLinkedQueue<>()));
	}

	private static Hold hold(CountDownLatch held, CountDownLatch release) throws InterruptedException {
		long start = System.nanoTime();
		LockHandle handle = LockContext.current().orElseThrow();
		held.countDown();
		if (!release.await(1, TimeUnit.MINUTES)) {
			throw new IllegalStateException("Not told to release within a minute");
		}
		return new Hold(start, System.nanoTime(), handle.fencingToken(), handle.isLeaseLost());
	}

	/**
	 * One hold of a lock.
	 *
	 * @param startNanos when the holder's work started
	 * @param endNanos when it ended
	 * @param fencingToken the fencing token of the hold
	 * @param leaseLost whether the holder knew its lease lost when it ended
	 */
	public record Hold(long startNanos, long endNanos, long fencingToken, boolean leaseLost) {

		Hold(long startNanos, long endNanos, long fencingToken) {
			this(startNanos, endNanos, fencingToken, false);
		}

	}

}
