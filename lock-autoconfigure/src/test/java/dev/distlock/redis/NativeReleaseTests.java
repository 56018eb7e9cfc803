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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.DigestUtils;
import org.springframework.util.StreamUtils;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockMisconfigurationException;
import dev.distlock.LockOptions;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.test.redis.ConditionalDeleteProxy;
import dev.distlock.test.redis.ConditionalDeleteProxy.Dialect;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisTestServer;
import dev.distlock.test.redis.RedisTestServers;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26, item 2: on a server with a native conditional delete (Redis 8.4's
 * {@code DELEX key IFEQ value}, Valkey 9's {@code DELIFEQ key value}), found by a probe
 * when the client starts, the release of an exclusive lock that nobody waits for is that
 * one command; a lock that someone waits for carries the queued mark, the command deletes
 * nothing, and the release script hands the lock over. On a server that has neither, the
 * same release is {@code delete-if-equal.lua}, a script that reads and deletes the lock's
 * key alone, and falls back the same way. No server here has either command: a
 * {@link ConditionalDeleteProxy} in front of a Redis 7 server plays one, and counts what
 * the client sends. The reactive client's release is {@code delete-if-equal.lua} on every
 * server (Spring Data Redis's reactive API cannot send a command it does not know), with
 * the same fallback.
 */
class NativeReleaseTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static final String RELEASE_SHA1 = sha1("dev/distlock/redis/release.lua");

	private static final String DELETE_IF_EQUAL_SHA1 = sha1("dev/distlock/redis/delete-if-equal.lua");

	private static RedisTestServer server;

	private ConditionalDeleteProxy proxy;

	private LockFixture fixture;

	@BeforeAll
	static void startServer() {
		server = RedisTestServers.startDedicated();
		// Loaded up front, so that each script is counted once per call whichever test
		// runs first (a first EVALSHA would be refused with NOSCRIPT and sent again).
		for (String script : List.of("release.lua", "delete-if-equal.lua", "acquire.lua")) {
			RedisAdminCommands.call(server, "SCRIPT", "LOAD", text("dev/distlock/redis/" + script));
		}
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@AfterEach
	void stop() {
		if (this.fixture != null) {
			this.fixture.close();
		}
		if (this.proxy != null) {
			this.proxy.close();
		}
	}

	@Test
	void releaseOfALockNobodyWaitsForIsOneDelexOnRedis84() {
		start(Dialect.REDIS_DELEX);
		String key = TestRedis.uniqueKey("native");
		LockHandle handle = this.fixture.client.lock(key, FIXED.withName("native"));
		this.proxy.resetCounts();
		handle.release();
		assertThat(this.proxy.count("DELEX")).as("DELEX key IFEQ token").isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("release scripts, of %s", this.proxy.counts()).isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		assertThat(handle.isLeaseLost()).isFalse();
	}

	@Test
	void releaseOfALockNobodyWaitsForIsOneDelifeqOnValkey9() {
		start(Dialect.VALKEY_DELIFEQ);
		String key = TestRedis.uniqueKey("native");
		LockHandle handle = this.fixture.client.lock(key, FIXED.withName("native"));
		this.proxy.resetCounts();
		handle.release();
		assertThat(this.proxy.count("DELIFEQ")).as("DELIFEQ key token").isEqualTo(1);
		assertThat(this.proxy.count("DELEX")).as("DELEX, of %s", this.proxy.counts()).isZero();
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("release scripts, of %s", this.proxy.counts()).isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	@Test
	void serverWithoutANativeConditionalDeleteIsReleasedByTheDeleteIfEqualScript() {
		start(Dialect.NONE);
		assertThat(this.proxy.count("DELIFEQ")).as("probed once").isEqualTo(1);
		String key = TestRedis.uniqueKey("native");
		LockHandle handle = this.fixture.client.lock(key, FIXED.withName("native"));
		this.proxy.resetCounts();
		handle.release();
		assertThat(this.proxy.count("DELEX") + this.proxy.count("DELIFEQ")).as("no native command").isZero();
		assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1))
			.as("delete-if-equal scripts, of %s", this.proxy.counts())
			.isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("release scripts").isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		assertThat(handle.isLeaseLost()).isFalse();
	}

	@Test
	void lockSomeoneWaitsForIsMarkedSoTheDeleteIfEqualScriptFailsAndTheReleaseScriptHandsItOver() throws Exception {
		markedLockIsHandedOverByTheReleaseScript(Dialect.NONE);
	}

	@Test
	void lockWhoseLeaseRanOutIsNotDeletedFromItsNewHolderByTheDeleteIfEqualScript() {
		lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect.NONE);
	}

	@Test
	void keyOfAnotherKindIsNotDeletedByTheDeleteIfEqualScriptAndTheReleaseScriptNamesIt() {
		start(Dialect.NONE);
		String key = TestRedis.uniqueKey("native");
		LockHandle lapsed = this.fixture.client.lock(key,
				new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("kind"));
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		this.fixture.redis.opsForZSet().add(key, "w.someone-else", 1);
		this.proxy.resetCounts();
		assertThatExceptionOfType(LockMisconfigurationException.class).isThrownBy(lapsed::release)
			.withMessageContaining("is a read-write lock");
		assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1)).as("delete-if-equal, which deletes nothing")
			.isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("then the release script").isEqualTo(1);
		assertThat(this.fixture.redis.type(key)).as("the other kind's key, untouched").hasToString("ZSET");
	}

	@Test
	void lockSomeoneWaitsForIsMarkedSoTheNativeDeleteFailsAndTheScriptHandsItOver() throws Exception {
		markedLockIsHandedOverByTheReleaseScript(Dialect.REDIS_DELEX);
	}

	@Test
	void lockWhoseLeaseRanOutIsNotDeletedFromItsNewHolder() {
		lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect.REDIS_DELEX);
	}

	/**
	 * A lock someone waits for carries the queued mark: the conditional delete (the
	 * server's {@code DELEX}, or {@code delete-if-equal.lua} where it has none) deletes
	 * nothing, and the release script hands the lock over.
	 */
	private void markedLockIsHandedOverByTheReleaseScript(Dialect dialect) throws Exception {
		start(dialect);
		String key = TestRedis.uniqueKey("native");
		LockOptions options = new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)).withName("queued");
		LockHandle holder = this.fixture.client.lock(key, options);
		String holderValue = this.fixture.redis.opsForValue().get(key);
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30))) {
			CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(() -> other.client.lock(key, options));
			awaitMarked(key, holderValue);
			this.proxy.resetCounts();
			long released = System.nanoTime();
			holder.release();
			LockHandle handedOver = waiter.get(10, TimeUnit.SECONDS);
			long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
			assertThat(conditionalDeletesSent(dialect)).as("the conditional delete, which deletes nothing")
				.isEqualTo(1);
			assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("then the release script").isEqualTo(1);
			assertThat(holder.isLeaseLost()).isFalse();
			assertThat(waited).as("handed over by the release, not found free after a backstop pause").isLessThan(900);
			assertThat(this.fixture.redis.opsForValue().get(key)).as("the waiter's token, nobody else waiting")
				.doesNotContain("+queued")
				.isNotEqualTo(holderValue);
			handedOver.release();
		}
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	/**
	 * The release of a holder whose lease ran out, and whose key another client holds
	 * now, deletes nothing of the new holder's and tells it lost its lock.
	 */
	private void lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect dialect) {
		lapsedHoldersReleaseLeavesTheNewHoldersKey(dialect, false);
	}

	/**
	 * As {@link #lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect)}, the lapsed hold
	 * taken and released by the blocking client, or by a reactive one.
	 */
	private void lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect dialect, boolean reactive) {
		start(dialect);
		String key = TestRedis.uniqueKey("native");
		LockOptions lapsing = new LockOptions(Duration.ZERO, Duration.ofMillis(200)).withName("lapsed");
		ThrowingCallable release;
		if (reactive) {
			ReactiveLockHandle lapsed = reactive().lock(key, lapsing).block(Duration.ofSeconds(5));
			release = () -> lapsed.release().block(Duration.ofSeconds(5));
		}
		else {
			LockHandle lapsed = this.fixture.client.lock(key, lapsing);
			release = lapsed::release;
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.fixture.redis.hasKey(key));
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30));
				LockHandle current = other.client.lock(key, FIXED.withName("lapsed"))) {
			String currentValue = this.fixture.redis.opsForValue().get(key);
			this.proxy.resetCounts();
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(release);
			assertThat(conditionalDeletesSent(dialect)).isEqualTo(1);
			assertThat(this.proxy.scriptCount(RELEASE_SHA1))
				.as("then the release script, which finds it lost, of %s", this.proxy.counts())
				.isEqualTo(1);
			assertThat(this.fixture.redis.opsForValue().get(key)).as("the new holder's key, untouched")
				.isEqualTo(currentValue);
			assertThat(current.isLeaseLost()).isFalse();
		}
	}

	/**
	 * Returns how many conditional deletes the proxy saw: {@code DELEX} requests where it
	 * plays Redis 8.4, else calls of {@code delete-if-equal.lua}.
	 */
	private long conditionalDeletesSent(Dialect dialect) {
		return (dialect == Dialect.REDIS_DELEX) ? this.proxy.count("DELEX")
				: this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1);
	}

	@Test
	void serverThatStopsRunningTheCommandIsReleasedByTheDeleteIfEqualScriptFromThenOn() {
		start(Dialect.REDIS_DELEX);
		this.proxy.dialect(Dialect.NONE);
		String key = TestRedis.uniqueKey("native");
		LockHandle first = this.fixture.client.lock(key, FIXED.withName("downgraded"));
		this.proxy.resetCounts();
		first.release();
		assertThat(this.proxy.count("DELEX")).as("refused: unknown command").isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("then the release script").isEqualTo(1);
		assertThat(first.isLeaseLost()).isFalse();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		this.fixture.client.lock(key, FIXED.withName("downgraded")).release();
		assertThat(this.proxy.count("DELEX")).as("not sent again").isEqualTo(1);
		assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1)).as("but the script that does the same").isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).isEqualTo(1);
	}

	@Test
	void reactiveReleaseOfALockNobodyWaitsForIsTheDeleteIfEqualScriptEvenWhereTheServerHasDelex() {
		start(Dialect.REDIS_DELEX);
		String key = TestRedis.uniqueKey("native");
		ReactiveLockHandle handle = reactive().lock(key, FIXED.withName("reactive")).block(Duration.ofSeconds(5));
		this.proxy.resetCounts();
		handle.release().block(Duration.ofSeconds(5));
		assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1))
			.as("delete-if-equal scripts, of %s", this.proxy.counts())
			.isEqualTo(1);
		assertThat(this.proxy.count("DELEX")).as("the reactive API cannot send DELEX").isZero();
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("release scripts").isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
		assertThat(handle.isReleased()).isTrue();
	}

	@Test
	void reactiveReleaseOfALockSomeoneWaitsForIsHandedOverByTheReleaseScriptUntilItIsFoundFree() throws Exception {
		start(Dialect.NONE);
		ReactiveRedisLockClient reactive = reactive();
		String key = TestRedis.uniqueKey("native");
		LockOptions options = new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(30)).withName("r-queued");
		ReactiveLockHandle holder = reactive.lock(key, options).block(Duration.ofSeconds(5));
		String holderValue = this.fixture.redis.opsForValue().get(key);
		try (LockFixture other = LockFixture.start(server, Duration.ofSeconds(30))) {
			CompletableFuture<LockHandle> waiter = CompletableFuture.supplyAsync(() -> other.client.lock(key, options));
			awaitMarked(key, holderValue);
			this.proxy.resetCounts();
			long released = System.nanoTime();
			holder.release().block(Duration.ofSeconds(5));
			LockHandle handedOver = waiter.get(10, TimeUnit.SECONDS);
			long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
			assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1)).as("delete-if-equal, which deletes nothing")
				.isEqualTo(1);
			assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("then the release script").isEqualTo(1);
			assertThat(waited).as("handed over by the release, not found free after a backstop pause").isLessThan(900);
			String waiterValue = this.fixture.redis.opsForValue().get(key);
			assertThat(waiterValue).as("the waiter's token").isNotEqualTo(holderValue);
			// Queued behind the other client: its first attempt finds the key taken.
			CompletableFuture<ReactiveLockHandle> next = reactive.lock(key, options).toFuture();
			awaitMarked(key, waiterValue);
			handedOver.release();
			ReactiveLockHandle nextHandle = next.get(10, TimeUnit.SECONDS);
			this.proxy.resetCounts();
			nextHandle.release().block(Duration.ofSeconds(5));
			assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1))
				.as("a name last found contended: no delete-if-equal")
				.isZero();
			assertThat(this.proxy.scriptCount(RELEASE_SHA1)).as("the release script at once").isEqualTo(1);
		}
		this.proxy.resetCounts();
		reactive.lock(key, options).flatMap(ReactiveLockHandle::release).block(Duration.ofSeconds(5));
		assertThat(this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1)).as("found free at the first attempt: delete-if-equal")
			.isEqualTo(1);
		assertThat(this.proxy.scriptCount(RELEASE_SHA1)).isZero();
		assertThat(this.fixture.redis.hasKey(key)).isFalse();
	}

	private void awaitMarked(String key, String holderValue) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> (holderValue + "+queued").equals(this.fixture.redis.opsForValue().get(key)));
	}

	@Test
	void reactiveReleaseOfALockWhoseLeaseRanOutLeavesTheNewHoldersKeyAndSaysSo() {
		lapsedHoldersReleaseLeavesTheNewHoldersKey(Dialect.NONE, true);
	}

	private ReactiveRedisLockClient reactive() {
		return new ReactiveRedisLockClient(this.fixture.client,
				new ReactiveStringRedisTemplate(this.fixture.connectionFactory));
	}

	/**
	 * Starts the proxy and a client through it, and waits until the client's probe has
	 * tried every command it tries on that server and, where the server has one, its
	 * releases use it. The client's first acquisition runs the acquire script; the tests'
	 * are then plain.
	 */
	private void start(Dialect dialect) {
		this.proxy = ConditionalDeleteProxy.start(server.port(), dialect);
		this.fixture = LockFixture.start(new ProxiedServer(this.proxy.port()), Duration.ofSeconds(30));
		String lastProbed = (dialect == Dialect.REDIS_DELEX) ? "DELEX" : "DELIFEQ";
		await().atMost(Duration.ofSeconds(10)).until(() -> this.proxy.count(lastProbed) == 1);
		String warmUp = TestRedis.uniqueKey("warm-up");
		if (dialect == Dialect.NONE) {
			this.fixture.client.lock(warmUp, FIXED.withName("warm-up")).release();
			return;
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			this.fixture.client.lock(warmUp, FIXED.withName("warm-up")).release();
			return this.proxy.count(lastProbed) > 1;
		});
	}

	private static String sha1(String resource) {
		return DigestUtils.sha1DigestAsHex(text(resource));
	}

	private static String text(String resource) {
		try (InputStream in = new ClassPathResource(resource).getInputStream()) {
			return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The proxy's port, seen as a server that tests do not start or stop. */
	private record ProxiedServer(int port) implements RedisTestServer {

		@Override
		public String host() {
			return "127.0.0.1";
		}

		@Override
		public boolean isStoppable() {
			return false;
		}

		@Override
		public void stop() {
			throw new UnsupportedOperationException("The proxy's server is not stopped by tests");
		}

		@Override
		public void start() {
			throw new UnsupportedOperationException("The proxy's server is not started by tests");
		}

		@Override
		public void close() {
		}

	}

}
