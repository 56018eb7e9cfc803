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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;

import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A free exclusive lock that nobody waits for is acquired with one plain
 * {@code SET NX PX}, and its fencing token is issued when its holder first asks for it;
 * locks whose holders ask for tokens, locks found held, shared locks and clients whose
 * grants need the acquire script (a restart quarantine) use the script. Counted in Redis
 * ({@code INFO commandstats}) on a server of this class's own.
 */
class PlainAcquireTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static RedisTestServer server;

	private static LockFixture fixture;

	@BeforeAll
	static void start() {
		server = RedisTestServers.startDedicated();
		fixture = LockFixture.start(server, Duration.ofSeconds(30));
		// Loaded now, so that no EVALSHA below fails with NOSCRIPT and is sent again.
		fixture.client.monitor().checkScripts();
		// A client's first acquisition runs the acquire script, which checks the server.
		fixture.client.lock(TestRedis.uniqueKey("first"), FIXED).release();
	}

	@AfterAll
	static void stop() {
		fixture.close();
		server.close();
	}

	@Test
	void freeLockIsAcquiredWithoutAScriptAndReleasedWithOne() {
		String key = TestRedis.uniqueKey("plain");
		Calls before = Calls.of(fixture);
		LockHandle handle = fixture.client.lock(key, FIXED.withName("plain-no-token"));
		Calls acquired = Calls.of(fixture);
		assertThat(acquired.scripts - before.scripts).as("scripts to acquire").isZero();
		assertThat(acquired.sets - before.sets).as("SET NX PX").isEqualTo(1);
		assertThat(fixture.redis.opsForValue().get(key)).as("the key holds an owner token").isNotBlank();
		handle.release();
		assertThat(Calls.of(fixture).scripts - acquired.scripts).as("scripts to release").isEqualTo(1);
		assertThat(fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void tokenIsIssuedOnceWhenFirstAskedAndIncreasesWithEveryHoldThatUsesOne() {
		String key = TestRedis.uniqueKey("plain");
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			// A name of its own per hold: no earlier hold of it asked for a token.
			try (LockHandle handle = fixture.client.lock(key, FIXED.withName("lazy-" + i + "-" + key))) {
				Calls before = Calls.of(fixture);
				long token = handle.fencingToken();
				assertThat(handle.fencingToken()).as("the same token every time").isEqualTo(token);
				assertThat(Calls.of(fixture).scripts - before.scripts).as("one script issues it").isEqualTo(1);
				tokens.add(token);
			}
			// A hold in between that never asks takes no token.
			try (LockHandle unused = fixture.client.lock(key, FIXED.withName("never-" + i + "-" + key))) {
				assertThat(unused.isLeaseLost()).isFalse();
			}
		}
		assertThat(tokens).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
		assertThat(tokens.get(0)).as("not below the server's clock in microseconds")
			.isGreaterThan((System.currentTimeMillis() - 60_000) * 1000);
	}

	@Test
	void locksWhoseHoldsAskForTokensAreAcquiredWithTheirToken() {
		String key = TestRedis.uniqueKey("plain");
		LockOptions fenced = FIXED.withName("fenced-" + key);
		try (LockHandle first = fixture.client.lock(key, fenced)) {
			first.fencingToken();
		}
		Calls before = Calls.of(fixture);
		try (LockHandle second = fixture.client.lock(key, fenced)) {
			Calls acquired = Calls.of(fixture);
			assertThat(acquired.scripts - before.scripts).as("the acquire script").isEqualTo(1);
			assertThat(acquired.sets - before.sets).as("the script's SET NX PX and counter, no plain SET first")
				.isEqualTo(2);
			assertThat(second.fencingToken()).isPositive();
			assertThat(Calls.of(fixture).scripts - acquired.scripts).as("no script to issue it").isZero();
		}
	}

	@Test
	void lockFoundHeldGoesToTheScriptAtOnce() throws Exception {
		String key = TestRedis.uniqueKey("plain");
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30));
				LockHandle held = other.client.lock(key, FIXED.withName("held"))) {
			Calls before = Calls.of(fixture);
			assertThat(fixture.client.tryLock(key, FIXED.withName("held"))).isEmpty();
			Calls after = Calls.of(fixture);
			assertThat(after.sets - before.sets).as("the plain SET NX PX, and the script's own").isEqualTo(2);
			assertThat(after.scripts - before.scripts).as("then the script, which reads the holder's lease")
				.isEqualTo(1);
			assertThat(fixture.client.tryLock(key, FIXED.withName("held"))).isEmpty();
			Calls again = Calls.of(fixture);
			assertThat(again.sets - after.sets).as("a lock found taken: its next first attempt is the script's")
				.isEqualTo(1);
			assertThat(again.scripts - after.scripts).isEqualTo(1);
		}
		// Free again: the script grants the first attempt, and the one after is plain.
		try (LockHandle handle = fixture.client.lock(key, FIXED.withName("held"))) {
			assertThat(handle.isLeaseLost()).isFalse();
		}
		Calls before = Calls.of(fixture);
		try (LockHandle handle = fixture.client.lock(key, FIXED.withName("held"))) {
			assertThat(Calls.of(fixture).scripts - before.scripts).as("scripts to acquire").isZero();
		}
	}

	@Test
	void sharedLocksUseTheirScript() {
		String key = TestRedis.uniqueKey("plain");
		Calls before = Calls.of(fixture);
		try (LockHandle read = fixture.client.lock(key, FIXED.withName("shared").withMode(LockMode.READ))) {
			Calls acquired = Calls.of(fixture);
			assertThat(acquired.scripts - before.scripts).isEqualTo(1);
			assertThat(read.fencingToken()).isPositive();
			assertThat(Calls.of(fixture).scripts).as("its token came with the grant").isEqualTo(acquired.scripts);
		}
	}

	@Test
	void clientWithARestartQuarantineAlwaysUsesTheScript() {
		try (LockFixture quarantined = LockFixture.start(server,
				(builder) -> builder.restartQuarantine(Duration.ofSeconds(30)))) {
			String key = TestRedis.uniqueKey("plain");
			// The first acquire of the server may start its quarantine: the counter is
			// there already, from the other tests.
			fixture.client.lock(key, FIXED.withName("counter")).fencingToken();
			Calls before = Calls.of(fixture);
			try (LockHandle handle = quarantined.client.lock(TestRedis.uniqueKey("plain"), FIXED.withName("q"))) {
				Calls acquired = Calls.of(fixture);
				assertThat(acquired.sets - before.sets).as("the script's SET NX PX and counter").isEqualTo(2);
				assertThat(acquired.scripts - before.scripts).isEqualTo(1);
				assertThat(handle.fencingToken()).isPositive();
				assertThat(Calls.of(fixture).scripts).as("its token came with the grant").isEqualTo(acquired.scripts);
			}
		}
	}

	/** The scripts and plain SETs the server ran so far. */
	private record Calls(long scripts, long sets) {

		static Calls of(LockFixture fixture) {
			Properties stats = fixture.redis
				.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
			return new Calls(calls(stats, "cmdstat_evalsha") + calls(stats, "cmdstat_eval"),
					calls(stats, "cmdstat_set"));
		}

		private static long calls(Properties stats, String command) {
			String value = (stats != null) ? stats.getProperty(command) : null;
			return (value != null) ? Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1")) : 0;
		}

	}

}
