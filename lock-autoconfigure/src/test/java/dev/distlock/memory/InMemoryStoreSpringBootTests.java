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

package dev.distlock.memory;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

import dev.distlock.DistributedLock;
import dev.distlock.LockClient;
import dev.distlock.autoconfigure.DistributedLockAutoConfiguration;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A unit test of locked code as a user writes it, without Redis: a
 * {@code @SpringBootTest} with {@code distlock.store=in-memory} locks through
 * {@code @DistributedLock} in memory. 8 threads × 50 decrements of a stock kept in a
 * plain {@link HashMap} leave exactly 400 of 800, with no overlapping holds.
 */
@SpringBootTest(properties = "distlock.store=in-memory")
class InMemoryStoreSpringBootTests {

	@Autowired
	private StockService stock;

	@Autowired
	private LockClient lockClient;

	@Test
	void decrementsAreSerializedWithoutRedis() throws Exception {
		this.stock.set(7, 800);
		ConcurrentRunner.run(8, 50, (thread) -> this.stock.decrement(7));
		assertThat(this.stock.get(7)).isEqualTo(400);
		this.stock.holds().assertSerial(400);
		assertThat(this.lockClient).isInstanceOf(InMemoryLockClient.class);
	}

	/** distlock and AOP only: no Redis anywhere in this application. */
	@SpringBootConfiguration
	@ImportAutoConfiguration({ AopAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	@Import(StockService.class)
	static class StockApplication {

	}

	static class StockService {

		/** Not thread-safe: only the lock keeps the decrements apart. */
		private final Map<Long, Integer> stock = new HashMap<>();

		private final HoldLog holds = new HoldLog();

		@DistributedLock(key = "'lock:sku:' + #sku", waitTime = "1m")
		public void decrement(long sku) {
			long start = System.nanoTime();
			this.stock.put(sku, this.stock.get(sku) - 1);
			this.holds.record(start, System.nanoTime());
		}

		public int get(long sku) {
			return this.stock.get(sku);
		}

		public void set(long sku, int left) {
			this.stock.put(sku, left);
		}

		public HoldLog holds() {
			return this.holds;
		}

	}

}
