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

package dev.distlock.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DigestUtils;
import org.springframework.util.StreamUtils;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;
import dev.distlock.test.redis.ConditionalDeleteProxy;
import dev.distlock.test.redis.ConditionalDeleteProxy.Dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26, item 2: the release of a lock nobody waits for as one conditional delete of
 * its key: the native {@code DELEX key IFEQ token} (played by a
 * {@link ConditionalDeleteProxy} in front of Redis 7), and, on a server without one,
 * {@code delete-if-equal.lua}. A holds K with a fixed lease of 300 ms and is paused for
 * 700 ms in its work; its lease runs out, B is granted K and holds it; A wakes and
 * releases. Guaranteed: A's release deletes nothing of B's, A is told it lost the lock,
 * and a third client C is refused K while B holds it. The controls: a server whose
 * {@code DELEX} ignores the value, and one that runs A's one-key script as a {@code DEL}
 * (both deletes without the owner check, as blog locks' {@code DEL}), delete B's key, and
 * C is granted K beside B. A reactive A releases with {@code delete-if-equal.lua} on
 * every server, with the same guarantee and the same control.
 */
class NativeReleaseFaultTests {

	private static final LockOptions LAPSING = new LockOptions(Duration.ZERO, Duration.ofMillis(300))
		.withName("native-release");

	private static final LockOptions HELD = new LockOptions(Duration.ZERO, Duration.ofSeconds(30))
		.withName("native-release");

	private static final String DELETE_IF_EQUAL_SHA1 = sha1("dev/distlock/redis/delete-if-equal.lua");

	private static RedisNode redis;

	private static LockApps apps;

	private static LockClient clientB;

	private static LockClient clientC;

	private ConditionalDeleteProxy proxy;

	private LockApps appsA;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		apps = new LockApps();
		clientB = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		clientC = apps.client(redis.port(), "spring.data.redis.timeout=2s");
	}

	@AfterAll
	static void stop() {
		apps.close();
		redis.close();
	}

	@AfterEach
	void stopA() {
		this.appsA.close();
		this.proxy.close();
	}

	@Test
	void releaseOfAPausedHolderWhoseLeaseRanOutLeavesTheNextHoldersKey() {
		Run run = pausedHolderReleases(Dialect.REDIS_DELEX);
		run.record("native release (DELEX IFEQ), paused holder");
		run.assertNextHolderKept();
	}

	@Test
	void controlADeleteWithoutTheOwnerCheckFreesTheNextHoldersLock() {
		Run run = pausedHolderReleases(Dialect.DELEX_IGNORING_VALUE);
		run.record("native release control (DELEX ignoring the value), paused holder");
		run.assertNextHolderFreed();
	}

	@Test
	void releaseByTheDeleteIfEqualScriptOfAPausedHolderWhoseLeaseRanOutLeavesTheNextHoldersKey() {
		Run run = pausedHolderReleases(Dialect.NONE);
		run.record("release by delete-if-equal.lua (no native command), paused holder");
		assertThat(run.deletesSent).as("delete-if-equal scripts sent by A's release").isEqualTo(1);
		run.assertNextHolderKept();
	}

	@Test
	void controlAScriptDeleteWithoutTheOwnerCheckFreesTheNextHoldersLock() {
		Run run = pausedHolderReleases(Dialect.SCRIPT_DELETE_IGNORING_VALUE);
		run.record("delete-if-equal.lua control (run as a DEL), paused holder");
		assertThat(run.deletesSent).as("delete-if-equal scripts sent by A's release").isEqualTo(1);
		run.assertNextHolderFreed();
	}

	@Test
	void reactiveReleaseByTheDeleteIfEqualScriptOfAPausedHolderWhoseLeaseRanOutLeavesTheNextHoldersKey() {
		Run run = pausedHolderReleases(Dialect.NONE, true);
		run.record("reactive release by delete-if-equal.lua, paused holder");
		assertThat(run.deletesSent).as("delete-if-equal scripts sent by A's release").isEqualTo(1);
		run.assertNextHolderKept();
	}

	@Test
	void controlAReactiveScriptDeleteWithoutTheOwnerCheckFreesTheNextHoldersLock() {
		Run run = pausedHolderReleases(Dialect.SCRIPT_DELETE_IGNORING_VALUE, true);
		run.record("reactive delete-if-equal.lua control (run as a DEL), paused holder");
		assertThat(run.deletesSent).as("delete-if-equal scripts sent by A's release").isEqualTo(1);
		run.assertNextHolderFreed();
	}

	private Run pausedHolderReleases(Dialect dialect) {
		return pausedHolderReleases(dialect, false);
	}

	/**
	 * A, through the proxy, holds K with a lease that runs out while its work is paused;
	 * B takes K; A releases, blocking or reactive; C tries K.
	 */
	private Run pausedHolderReleases(Dialect dialect, boolean reactive) {
		String key = "lock:native:" + UUID.randomUUID();
		LockClient clientA = startA(dialect);
		ReactiveLockClient reactiveA = this.appsA.reactiveClient();
		Runnable releaseA;
		if (reactive) {
			ReactiveLockHandle a = reactiveA.lock(key, LAPSING).block(Duration.ofSeconds(5));
			releaseA = () -> a.release().block(Duration.ofSeconds(5));
		}
		else {
			LockHandle a = clientA.lock(key, LAPSING);
			releaseA = a::release;
		}
		String aValue = (String) Resp.call(redis.port(), "GET", key);
		long paused = System.nanoTime();
		// A's work is paused (a long GC pause, a stalled VM) past its lease.
		Pause.millis(700);
		LockHandle b = clientB.lock(key, HELD);
		try {
			String bValue = (String) Resp.call(redis.port(), "GET", key);
			long deletesBefore = deletesSent(dialect);
			String releaseOutcome;
			try {
				releaseA.run();
				releaseOutcome = "released";
			}
			catch (LockLeaseLostException ex) {
				releaseOutcome = ex.getClass().getSimpleName();
			}
			long deletesSent = deletesSent(dialect) - deletesBefore;
			String bKeyAfterRelease = (String) Resp.call(redis.port(), "GET", key);
			Optional<LockHandle> c = clientC.tryLock(key, HELD);
			c.ifPresent(LockHandle::release);
			boolean bLost = b.isLeaseLost();
			return new Run(aValue, bValue, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - paused), deletesSent,
					releaseOutcome, bKeyAfterRelease, c.isPresent(), bLost);
		}
		finally {
			try {
				b.release();
			}
			catch (LockLeaseLostException ex) {
				// The control: B's key was deleted under it.
			}
		}
	}

	/**
	 * Returns how many conditional deletes the proxy saw: {@code DELEX} requests, or
	 * calls of {@code delete-if-equal.lua} on a server without a native command.
	 */
	private long deletesSent(Dialect dialect) {
		return (dialect == Dialect.NONE || dialect == Dialect.SCRIPT_DELETE_IGNORING_VALUE)
				? this.proxy.scriptCount(DELETE_IF_EQUAL_SHA1) : this.proxy.count("DELEX");
	}

	/**
	 * Starts client A through the proxy, and waits until its releases use the conditional
	 * delete: its probe answered (the native command where the proxy plays one), and its
	 * first acquisition ran the acquire script.
	 */
	private LockClient startA(Dialect dialect) {
		this.proxy = ConditionalDeleteProxy.start(redis.port(), dialect).scriptIgnoringValue(DELETE_IF_EQUAL_SHA1);
		this.appsA = new LockApps();
		LockClient clientA = this.appsA.client(this.proxy.port(), "spring.data.redis.timeout=2s");
		String warmUp = "lock:native:warm-up:" + UUID.randomUUID();
		if (dialect == Dialect.NONE || dialect == Dialect.SCRIPT_DELETE_IGNORING_VALUE) {
			// Refused DELEX, then DELIFEQ: the probe has answered.
			await().atMost(Duration.ofSeconds(10)).until(() -> this.proxy.count("DELIFEQ") == 1);
			clientA.lock(warmUp, HELD.withName("warm-up")).release();
			return clientA;
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			clientA.lock(warmUp, HELD.withName("warm-up")).release();
			return this.proxy.count("DELEX") > 1;
		});
		return clientA;
	}

	private static String sha1(String resource) {
		try (InputStream in = new ClassPathResource(resource).getInputStream()) {
			return DigestUtils.sha1DigestAsHex(StreamUtils.copyToString(in, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Run(String aValue, String bValue, long pausedToReleasedMs, long deletesSent, String releaseOutcome,
			String bKeyAfterRelease, boolean cGranted, boolean bLost) {

		/** A's release deleted nothing of B's, and A was told it lost the lock. */
		void assertNextHolderKept() {
			assertThat(this.releaseOutcome).as("A's release").isEqualTo("LockLeaseLostException");
			assertThat(this.bKeyAfterRelease).as("B's key after A's release").isEqualTo(this.bValue);
			assertThat(this.cGranted).as("C granted K while B held it").isFalse();
		}

		/** The control: A's release deleted B's key, and C got K beside B. */
		void assertNextHolderFreed() {
			assertThat(this.bKeyAfterRelease).as("control: B's key deleted by A's release").isNull();
			assertThat(this.cGranted).as("control: C granted K while B held it").isTrue();
		}

		void record(String scenario) {
			Figures.record(scenario,
					"A held K (300 ms fixed lease), paused 700 ms; B granted K (%s A's value); A released %d ms after "
							+ "its pause began: %d conditional deletes sent, outcome %s; B's key after it: %s; C granted K beside B: "
							+ "%s; B told lost: %s",
					this.bValue.equals(this.aValue) ? "SAME as" : "not", this.pausedToReleasedMs, this.deletesSent,
					this.releaseOutcome,
					(this.bKeyAfterRelease == null) ? "deleted"
							: this.bKeyAfterRelease.equals(this.bValue) ? "kept" : "changed",
					this.cGranted, this.bLost);
		}

	}

}
