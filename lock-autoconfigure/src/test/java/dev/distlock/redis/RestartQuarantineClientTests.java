package dev.distlock.redis;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A client with a restart quarantine of 1 s on a keyspace whose fencing counter does not
 * exist, as on a server that lost distlock's state: a caller that does not wait is told
 * the lock is not acquired (it is reported held, not unavailable), a caller that waits
 * gets it once the quarantine is over, and the locking health check fails naming the
 * quarantine.
 */
class RestartQuarantineClientTests {

	private static final Duration QUARANTINE = Duration.ofSeconds(1);

	private final LockFixture fixture = LockFixture.start(RedisTestServers.shared(),
			(builder) -> builder.keyPrefix(TestRedis.uniqueKey("quarantine-client") + ":")
				.renewalLease(QUARANTINE)
				.restartQuarantine(QUARANTINE));

	@AfterEach
	void close() {
		this.fixture.close();
	}

	@Test
	void callersWaitTheQuarantineOutAsAHeldLock() {
		RedisLockClient client = this.fixture.client;
		long start = System.nanoTime();
		Optional<LockHandle> notWaiting = client.tryLock("job", LockOptions.renewing(Duration.ZERO));
		assertThat(notWaiting).as("a caller that does not wait").isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> client.monitor().checkLocking())
			.withMessageContaining("restart quarantine")
			.withMessageContaining("grants no lock for another");
		try (LockHandle handle = client.lock("job", LockOptions.renewing(Duration.ofSeconds(5)))) {
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("granted after")
				.isGreaterThanOrEqualTo(QUARANTINE.minusMillis(50));
			assertThat(handle.isLeaseLost()).isFalse();
		}
		client.monitor().checkLocking();
	}

}
