package dev.distlock.redis;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder that cannot renew because Redis is unreachable is told its lease is lost once
 * the lease has passed without a renewal.
 */
class RenewalWhileRedisDownTests {

	@Test
	void redisUnreachablePastTheLeaseIsReportedAsLeaseLost() {
		RecordingLockListener listener = new RecordingLockListener();
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofMillis(900), listener)) {
			LockHandle handle = fixture.client.lock(TestRedis.uniqueKey("down"), LockOptions.renewing(Duration.ZERO));
			server.stop();
			await().atMost(Duration.ofSeconds(30)).until(handle::isLeaseLost);
			await().atMost(Duration.ofSeconds(30)).until(() -> !listener.lost.isEmpty());
			assertThat(listener.lost).containsExactly(handle);
			server.start();
		}
	}

}
