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
			// The client's first acquisition runs the acquire script, which checks the
			// server; later ones of a free lock are a plain SET NX PX.
			fixture.client.lock("warm-up", options).release();
			// Loaded now, so that no EVALSHA below fails with NOSCRIPT and is sent again.
			fixture.client.monitor().checkScripts();
			long scriptsBefore = calls(fixture, "cmdstat_evalsha", "cmdstat_eval");
			long setsBefore = calls(fixture, "cmdstat_set");
			LockHandle outer = fixture.client.lock("reentrant", options);
			assertThat(calls(fixture, "cmdstat_evalsha", "cmdstat_eval") - scriptsBefore).as("scripts to acquire")
				.isZero();
			assertThat(calls(fixture, "cmdstat_set") - setsBefore).as("SET NX PX to acquire").isEqualTo(1);
			long token = outer.fencingToken();
			long scriptsAfterOuter = calls(fixture, "cmdstat_evalsha", "cmdstat_eval");
			assertThat(scriptsAfterOuter - scriptsBefore).as("the script that issued the token").isEqualTo(1);
			long setsAfterOuter = calls(fixture, "cmdstat_set");
			for (int i = 0; i < 10; i++) {
				try (LockHandle nested = fixture.client.lock("reentrant", options)) {
					assertThat(nested.fencingToken()).isEqualTo(token);
				}
			}
			assertThat(calls(fixture, "cmdstat_evalsha", "cmdstat_eval")).as("scripts for 10 nested acquisitions")
				.isEqualTo(scriptsAfterOuter);
			assertThat(calls(fixture, "cmdstat_set")).as("SETs for 10 nested acquisitions").isEqualTo(setsAfterOuter);
			outer.release();
			assertThat(calls(fixture, "cmdstat_evalsha", "cmdstat_eval") - scriptsAfterOuter).as("scripts to release")
				.isEqualTo(1);
		}
	}

	/** Counts the calls of the given commands, each under its own name. */
	private long calls(LockFixture fixture, String... commands) {
		Properties stats = fixture.redis.execute((org.springframework.data.redis.core.RedisCallback<Properties>) (
				connection) -> connection.serverCommands().info("commandstats"));
		long calls = 0;
		for (String command : commands) {
			String value = (stats != null) ? stats.getProperty(command) : null;
			if (value != null) {
				calls += Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"));
			}
		}
		return calls;
	}

}
