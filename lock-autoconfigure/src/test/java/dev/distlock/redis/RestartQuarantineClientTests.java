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
