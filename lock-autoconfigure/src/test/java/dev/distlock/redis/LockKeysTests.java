package dev.distlock.redis;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fencing counter of a lock must hash to the lock's cluster slot, as one script touches both.
 */
class LockKeysTests {

	@ParameterizedTest
	@ValueSource(strings = { "lock:sku:25", "{user:7}:lock", "a{b}c", "x{}y{z}", "{", "}", "plain" })
	void fenceKeyIsInTheSameSlotAsTheLockKey(String lockKey) {
		assertThat(LockKeys.slot(LockKeys.fenceKey(lockKey))).isEqualTo(LockKeys.slot(lockKey));
	}

	@ParameterizedTest
	@ValueSource(strings = { "lock:sku:25", "{user:7}:lock" })
	void fenceKeyDiffersFromTheLockKey(String lockKey) {
		assertThat(LockKeys.fenceKey(lockKey)).isNotEqualTo(lockKey).endsWith(":fence");
	}

}
