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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.NativeDeleteModule;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26, item 2, on a real server whose {@code DELEX} is its own command: a
 * {@code redis-server} 7 that loads {@link NativeDeleteModule}, which plays Redis 8.4's
 * {@code DELEX key IFEQ value} inside the server, with no proxy between the client and
 * the server ({@link NativeReleaseTests} covers the same choices through a proxy, and
 * Valkey's {@code DELIFEQ}). The client's probe finds the command, a release nobody waits
 * for is that one command, and one that meets a queued mark or another owner's token
 * deletes nothing and goes on to the release script. What the server ran is read from
 * {@code INFO commandstats}.
 */
class NativeReleaseOnServerTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static RedisServerProcess server;

	private LockFixture fixture;

	@BeforeAll
	static void startServer() {
		server = RedisServerProcess.startOnFreePort(NativeDeleteModule.loadArguments());
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	/**
	 * Starts a client and waits until its probe found the server's {@code DELEX} and its
	 * releases use it.
	 */
	@BeforeEach
	void start() {
		this.fixture = LockFixture.start(server, Duration.ofSeconds(30));
		String warmUp = TestRedis.uniqueKey("warm-up");
		long before = calls("delex");
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			this.fixture.client.lock(warmUp, FIXED.withName("warm-up")).release();
			return calls("delex") > before + 1;
		});
	}

	@AfterEach
	void stop() {
		this.fixture.close();
	}

	@Test
	void releaseOfALockNobodyWaitsForIsTheServersOwnDelex() {
		String key = TestRedis.uniqueKey("native");
		LockHandle handle = this.fixture.client.lock(key, FIXED.withName("native"));
		RedisAdminCommands.call(server, "CONFIG", "RESETSTAT");
		handle.release();
		assertThat(calls("delex")).as("DELEX key IFEQ token").isEqualTo(1);
		assertThat(calls("evalsha") + calls("eval")).as("scripts").isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		assertThat(handle.isLeaseLost()).isFalse();
	}

	@Test
	void lockSomeoneWaitsForIsMarkedSoDelexDeletesNothingAndTheScriptHandsItOver() throws Exception {
		String key = TestRedis.uniqueKey("native");
		LockOptions options = new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)).withName("queued");
		LockHandle holder = this.fixture.client.lock(key, options);
		String holderValue = this.fixture.redis.opsForValue().get(key);
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30))) {
			CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(() -> other.client.lock(key, options));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> (holderValue + "+queued").equals(this.fixture.redis.opsForValue().get(key)));
			RedisAdminCommands.call(server, "CONFIG", "RESETSTAT");
			holder.release();
			LockHandle handedOver = waiter.get(10, TimeUnit.SECONDS);
			assertThat(calls("delex")).as("DELEX, which deleted nothing").isEqualTo(1);
			assertThat(calls("evalsha")).as("then the release script").isEqualTo(1);
			assertThat(calls("publish")).as("which hands the lock over, and tells the waiter").isEqualTo(1);
			assertThat(holder.isLeaseLost()).isFalse();
			assertThat(this.fixture.redis.opsForValue().get(key)).as("the waiter's token")
				.doesNotContain("+queued")
				.isNotEqualTo(holderValue);
			handedOver.release();
		}
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void releaseOfALapsedHoldLeavesTheNewHoldersKeyAndSaysSo() {
		String key = TestRedis.uniqueKey("native");
		LockHandle lapsed = this.fixture.client.lock(key,
				new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("lapsed"));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30));
				LockHandle current = other.client.lock(key, FIXED.withName("lapsed"))) {
			String currentValue = this.fixture.redis.opsForValue().get(key);
			RedisAdminCommands.call(server, "CONFIG", "RESETSTAT");
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(lapsed::release);
			assertThat(calls("delex")).as("DELEX, which deleted nothing").isEqualTo(1);
			assertThat(calls("evalsha")).as("then the release script, which finds it lost").isEqualTo(1);
			assertThat(this.fixture.redis.opsForValue().get(key)).as("the new holder's key, untouched")
				.isEqualTo(currentValue);
			assertThat(current.isLeaseLost()).isFalse();
		}
	}

	/** How many times the server ran a command since its statistics were last reset. */
	private static long calls(String command) {
		String stats = RedisAdminCommands.text(server, "INFO", "commandstats");
		Matcher matcher = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(stats);
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

}
