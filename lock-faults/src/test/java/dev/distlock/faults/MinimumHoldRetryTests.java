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

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockMode;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 2: a minimum hold survives a release that is retried in the
 * background. A holds a key with a fixed 30 s lease and a 6 s minimum hold, works 100 ms
 * and releases through a proxy that loses the release: its request is swallowed and the
 * connection reset, or only its reply (the release ran, the caller cannot know it), or
 * every connection is reset and refused for 1 s or 3 s (A's command timeout is 500 ms, so
 * that its release fails within the outage). B, on a direct connection, tries every 20
 * ms. B must not be granted the key earlier than the minimum hold after A asked for it
 * (A's grant came no earlier than its call, so this follows from the rule whatever A's
 * process does between the grant's reply and the call's return), and must be granted it
 * no later than the minimum hold + one command timeout + 1 s after it: the retry keeps
 * what is left of the hold, counted from the grant, at its own send, and strands nothing
 * for the lease. The same for a read hold (B writes), a permit of a semaphore of 2 (the
 * other permit held by C), and two keys locked together. The control releases a hold
 * without a minimum hold under the same fault: B is granted the key within a second, so
 * the fault frees the key early unless the retry keeps the hold.
 */
class MinimumHoldRetryTests {

	private static final Duration MIN_HOLD = Duration.ofSeconds(6);

	private static final LockOptions HOLD = new LockOptions(Duration.ZERO, Duration.ofSeconds(30), MIN_HOLD);

	private static final LockOptions CONTEND = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static final long COMMAND_TIMEOUT_MS = 500;

	private static final long SLACK_MS = 1000;

	private static RedisNode redis;

	private static FaultProxy proxy;

	private static LockApps apps;

	private static LockClient holder;

	private static LockClient contender;

	private static LockClient other;

	/** Ends once the proxy forwards again after an outage. */
	private CompletableFuture<Void> outage = CompletableFuture.completedFuture(null);

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		proxy = FaultProxy.start(redis.port());
		apps = new LockApps();
		holder = apps.client(proxy.port(), "spring.data.redis.timeout=" + COMMAND_TIMEOUT_MS + "ms");
		contender = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		other = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		// Load the scripts, so that the faults hit EVALSHA calls that run.
		holder.lock("lock:warm-up", CONTEND).release();
		holder.lock("lock:warm-up-read", CONTEND.withMode(LockMode.READ)).release();
		LockApps.loadScripts(holder);
	}

	@AfterEach
	void endOutage() {
		this.outage.join();
		proxy.passThrough();
	}

	@AfterAll
	static void stop() {
		apps.close();
		proxy.close();
		redis.close();
	}

	@Test
	void releaseRequestLost() {
		exclusive("release request lost", 0);
	}

	@Test
	void releaseReplyLost() {
		String key = key("exclusive");
		long asked = System.nanoTime();
		LockHandle handle = holder.lock(key, HOLD);
		Pause.millis(100);
		proxy.dropNextReplyTo(key);
		String outcome = LockCalls.release(handle);
		long next = LockCalls.firstAcquisition(contender, key, CONTEND, bound(asked));
		assertKept("release reply lost (the release ran)", outcome, asked, next);
	}

	@Test
	void connectionsRefusedForOneSecond() {
		exclusive("connections refused 1 s", 1000);
	}

	@Test
	void connectionsRefusedForThreeSeconds() {
		exclusive("connections refused 3 s", 3000);
	}

	@Test
	void readHoldWhoseReleaseRequestIsLost() {
		String key = key("read");
		long asked = System.nanoTime();
		LockHandle read = holder.lock(key, HOLD.withMode(LockMode.READ));
		String outcome = releaseLosing(key, 0, read);
		long writer = LockCalls.firstAcquisition(contender, key, CONTEND.withMode(LockMode.WRITE), bound(asked));
		assertKept("read hold, release request lost (B writes)", outcome, asked, writer);
	}

	@Test
	void permitWhoseReleaseRequestIsLost() {
		String key = key("permits");
		LockOptions permit = CONTEND.withPermits(2);
		long asked = System.nanoTime();
		LockHandle held = holder.lock(key, HOLD.withPermits(2));
		try (LockHandle otherPermit = other.lock(key, permit)) {
			String outcome = releaseLosing(key, 0, held);
			long next = LockCalls.firstAcquisition(contender, key, permit, bound(asked));
			assertKept("permit of 2 (the other held), release request lost", outcome, asked, next);
		}
	}

	@Test
	void twoKeysWhoseFirstReleaseRequestIsLost() {
		String first = key("keys-a");
		String second = key("keys-b");
		long asked = System.nanoTime();
		LockHandle both = holder.lock(List.of(first, second), HOLD);
		String outcome = releaseLosing(first, 0, both);
		long[] next = firstAcquisitions(first, second, bound(asked));
		Figures.record("minimum hold: two keys, release request of one lost",
				"release gave %s; B granted the keys %s and %s after A asked for it (minimum hold %d ms, lease 30 s)",
				outcome, since(asked, next[0]), since(asked, next[1]), MIN_HOLD.toMillis());
		assertGrantedAfterTheMinimumHold(asked, next[0]);
		assertGrantedAfterTheMinimumHold(asked, next[1]);
	}

	@Test
	void controlWithoutAMinimumHoldTheLostReleaseFreesTheKeyAtOnce() {
		String key = key("control");
		long asked = System.nanoTime();
		LockHandle handle = holder.lock(key, CONTEND);
		String outcome = releaseLosing(key, 0, handle);
		long next = LockCalls.firstAcquisition(contender, key, CONTEND, bound(asked));
		Figures.record("minimum hold control: no minimum hold, release request lost",
				"release gave %s; B granted the key %s after A asked for it", outcome, since(asked, next));
		assertThat(next).as("B acquired").isPositive();
		assertThat((next - asked) / 1_000_000).as("ms from A's call to B's grant").isLessThan(1000);
	}

	private void exclusive(String fault, long refusedMillis) {
		String key = key("exclusive");
		long asked = System.nanoTime();
		LockHandle handle = holder.lock(key, HOLD);
		String outcome = releaseLosing(key, refusedMillis, handle);
		long next = LockCalls.firstAcquisition(contender, key, CONTEND, bound(asked));
		assertKept(fault, outcome, asked, next);
	}

	/**
	 * Works 100 ms, then releases while the proxy loses the release: swallows its request
	 * and resets the connection, or resets every connection and refuses new ones for a
	 * while from just before the release (which, queued by Lettuce until the command
	 * timeout, fails within the outage).
	 */
	private String releaseLosing(String marker, long refusedMillis, LockHandle handle) {
		Pause.millis(100);
		if (refusedMillis == 0) {
			proxy.dropNextRequest(marker);
		}
		else {
			proxy.resetAll(true);
			this.outage = CompletableFuture.runAsync(proxy::passThrough,
					CompletableFuture.delayedExecutor(refusedMillis, TimeUnit.MILLISECONDS));
		}
		return LockCalls.release(handle);
	}

	private static void assertKept(String fault, String outcome, long asked, long next) {
		Figures.record("minimum hold: " + fault,
				"release gave %s; B granted the key %s after A asked for it (minimum hold %d ms, lease 30 s)", outcome,
				since(asked, next), MIN_HOLD.toMillis());
		assertGrantedAfterTheMinimumHold(asked, next);
	}

	private static void assertGrantedAfterTheMinimumHold(long asked, long next) {
		assertThat(next).as("B acquired before the lease ran out").isPositive();
		assertThat((next - asked) / 1_000_000).as("ms from A's call to B's grant")
			.isGreaterThanOrEqualTo(MIN_HOLD.toMillis())
			.isLessThanOrEqualTo(MIN_HOLD.toMillis() + COMMAND_TIMEOUT_MS + SLACK_MS);
	}

	/** B's first grants of two keys, tried in turn every 20 ms. */
	private static long[] firstAcquisitions(String first, String second, Duration bound) {
		long[] acquired = { -1, -1 };
		long deadline = System.nanoTime() + bound.toNanos();
		while ((acquired[0] < 0 || acquired[1] < 0) && System.nanoTime() - deadline < 0) {
			if (acquired[0] < 0) {
				acquired[0] = acquiredNow(first);
			}
			if (acquired[1] < 0) {
				acquired[1] = acquiredNow(second);
			}
			Pause.millis(20);
		}
		return acquired;
	}

	/**
	 * Tries once, and releases at once.
	 * @return {@link System#nanoTime()} of the grant, or {@code -1}
	 */
	private static long acquiredNow(String key) {
		try {
			Optional<LockHandle> handle = contender.tryLock(key, CONTEND);
			if (handle.isPresent()) {
				long acquired = System.nanoTime();
				handle.get().release();
				return acquired;
			}
		}
		catch (RuntimeException ex) {
			// Tried again 20 ms later.
		}
		return -1;
	}

	/** How long B tries: until well after the latest grant the rule allows. */
	private static Duration bound(long asked) {
		long end = asked + MIN_HOLD.plusMillis(COMMAND_TIMEOUT_MS + 3 * SLACK_MS).toNanos();
		return Duration.ofNanos(Math.max(0, end - System.nanoTime()));
	}

	private static String since(long asked, long next) {
		return (next > 0) ? (next - asked) / 1_000_000 + " ms"
				: "not within " + MIN_HOLD.plusMillis(COMMAND_TIMEOUT_MS + 3 * SLACK_MS).toMillis() + " ms";
	}

	private static String key(String kind) {
		return "lock:min-hold-" + kind + ":" + UUID.randomUUID();
	}

}
