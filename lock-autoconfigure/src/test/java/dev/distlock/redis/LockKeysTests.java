package dev.distlock.redis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing counters and queues: one script touches a lock, its counter and its queue, so on a
 * cluster they must share a slot; and however many lock keys there are, the counters stay few.
 */
class LockKeysTests {

	@ParameterizedTest
	@ValueSource(strings = { "lock:sku:25", "{user:7}:lock", "a{b}c", "x{}y{z}", "{", "}", "plain" })
	void clusterCounterIsInTheSameSlotAsTheLockKey(String lockKey) {
		assertThat(LockKeys.slot(LockKeys.fenceKey(lockKey, true))).isEqualTo(LockKeys.slot(lockKey));
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:sku:25", "{user:7}:lock", "a{b}c", "x{}y{z}", "{", "}", "plain" })
	void clusterQueueKeysAreInTheSameSlotAsTheLockKey(String lockKey) {
		assertThat(LockKeys.slot(LockKeys.queueKey(lockKey, true))).isEqualTo(LockKeys.slot(lockKey));
		assertThat(LockKeys.slot(LockKeys.waitersKey(lockKey, true))).isEqualTo(LockKeys.slot(lockKey));
	}

	@Test
	void queueKeysNameTheirLock() {
		assertThat(LockKeys.queueKey("lock:sku:25", false)).isEqualTo("distlock:queue:lock:sku:25");
		assertThat(LockKeys.waitersKey("lock:sku:25", false)).isEqualTo("distlock:waiters:lock:sku:25");
	}

	@Test
	void clusterCountersAreAtMostOnePerSlot() {
		java.util.Set<String> counters = new java.util.HashSet<>();
		for (int i = 0; i < 100_000; i++) {
			counters.add(LockKeys.fenceKey("lock:sku:" + i, true));
		}
		assertThat(counters).hasSizeLessThanOrEqualTo(16_384);
	}

	@Test
	void singleServerUsesOneCounter() {
		assertThat(LockKeys.fenceKey("lock:sku:25", false)).isEqualTo(LockKeys.fenceKey("{user:7}:lock", false))
			.isEqualTo("distlock:fence");
	}

}
