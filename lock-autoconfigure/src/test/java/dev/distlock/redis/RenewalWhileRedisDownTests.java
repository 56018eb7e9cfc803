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
