package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redlock.RedLockClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link LockHandle#extend(Duration)} is not offered with RedLock yet: it is refused with
 * a message that names the lock and what to use instead, and the hold is unchanged.
 */
class RedLockExtendTests {

	@Test
	void extendIsRefusedWithAMessageSayingWhatToUseInsteadAndTheHoldIsUnchanged() {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			RedLockClient client = nodes.client(Duration.ofMillis(100), Duration.ofSeconds(3));
			RedLockClient other = nodes.client(Duration.ofMillis(100), Duration.ofSeconds(3));
			String key = "extend:" + UUID.randomUUID();
			LockHandle held = client.lock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(10)));
			assertThatExceptionOfType(UnsupportedOperationException.class)
				.isThrownBy(() -> held.extend(Duration.ofSeconds(30)))
				.withMessageContaining("LockHandle.extend is not supported with distlock.store=redlock")
				.withMessageContaining(key)
				.withMessageContaining("distlock.renewal.lease");
			assertThat(held.isLeaseLost()).isFalse();
			assertThat(other.tryLock(key, new LockOptions(Duration.ZERO, Duration.ofSeconds(10)))).isEmpty();
			held.release();
			assertThat(held.isReleased()).isTrue();
		}
	}

}
