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
