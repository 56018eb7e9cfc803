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
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Re-entrant acquisitions cost no round trip, and uncontended lock plus unlock costs two.
 * Counted with {@code INFO commandstats} on a server of this test's own.
 */
class ReentrancyTests {

	@Test
	void nestedAcquisitionSendsNoCommandAndUncontendedLockUnlockSendsTwo() {
		try (RedisTestServer server = RedisTestServers.startDedicated();
				LockFixture fixture = LockFixture.start(server, Duration.ofSeconds(30))) {
			LockOptions options = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));
			fixture.client.lock("warm-up", options).release();
			long before = scriptCalls(fixture);
			LockHandle outer = fixture.client.lock("reentrant", options);
			long afterOuter = scriptCalls(fixture);
			for (int i = 0; i < 10; i++) {
				try (LockHandle nested = fixture.client.lock("reentrant", options)) {
					assertThat(nested.fencingToken()).isEqualTo(outer.fencingToken());
				}
			}
			assertThat(scriptCalls(fixture)).as("commands for 10 nested acquisitions").isEqualTo(afterOuter);
			outer.release();
			assertThat(scriptCalls(fixture) - before).as("commands for one lock and unlock").isEqualTo(2);
		}
	}

	private long scriptCalls(LockFixture fixture) {
		Properties stats = fixture.redis.execute((org.springframework.data.redis.core.RedisCallback<Properties>) (
				connection) -> connection.serverCommands().info("commandstats"));
		long calls = 0;
		// Only the calls a client sends: commands run inside scripts are counted under
		// their own names.
		for (String command : new String[] { "cmdstat_evalsha", "cmdstat_eval" }) {
			String value = (stats != null) ? stats.getProperty(command) : null;
			if (value != null) {
				calls += Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"));
			}
		}
		return calls;
	}

}
