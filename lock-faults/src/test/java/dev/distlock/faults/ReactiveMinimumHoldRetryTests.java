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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.reactive.ReactiveLockClient;
import dev.distlock.reactive.ReactiveLockHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 2, reactive: a minimum hold survives a reactive release that is
 * retried in the background, whether it failed or its caller cancelled it. A holds a key
 * through the reactive client with a fixed 30 s lease and a 6 s minimum hold, works 100
 * ms and releases through a proxy that loses the release (its request swallowed and the
 * connection reset; every connection reset and refused for 1 s or 3 s; A's command
 * timeout is 500 ms), or holds its request back 400 ms while the caller cancels the
 * release after 150 ms. B, blocking, on a direct connection, tries every 20 ms: it must
 * not be granted the key earlier than the minimum hold after A asked for it (A's grant
 * came no earlier than its call), and must be granted it no later than the minimum hold +
 * one command timeout + 1 s after it (+ the 400 ms a held-back release reached Redis
 * late). The control cancels the release of a hold without a minimum hold the same way: B
 * is granted the key within a second.
 */
class ReactiveMinimumHoldRetryTests {

	private static final Duration MIN_HOLD = Duration.ofSeconds(6);

	private static final LockOptions HOLD = new LockOptions(Duration.ZERO, Duration.ofSeconds(30), MIN_HOLD);

	private static final LockOptions CONTEND = new LockOptions(Duration.ZERO, Duration.ofSeconds(30));

	private static final long COMMAND_TIMEOUT_MS = 500;

	private static final long HELD_BACK_MS = 400;

	private static final long SLACK_MS = 1000;

	private static RedisNode redis;

	private static FaultProxy proxy;

	private static LockApps apps;

	private static ReactiveLockClient holder;

	private static LockClient contender;

	/** Ends once the proxy forwards again after an outage. */
	private CompletableFuture<Void> outage = CompletableFuture.completedFuture(null);

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		proxy = FaultProxy.start(redis.port());
		apps = new LockApps();
		holder = apps.start(proxy.port(), "spring.data.redis.timeout=" + COMMAND_TIMEOUT_MS + "ms")
			.getBean(ReactiveLockClient.class);
		contender = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		// Load the scripts, so that the faults hit EVALSHA calls that run.
		holder.lock("lock:warm-up", CONTEND).flatMap(ReactiveLockHandle::release).block();
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
		String key = key();
		long asked = System.nanoTime();
		ReactiveLockHandle handle = holder.lock(key, HOLD).block();
		Pause.millis(100);
		proxy.dropNextRequest(key);
		assertKept("release request lost", outcome(handle.release()), asked, key, 0);
	}

	@Test
	void connectionsRefusedForOneSecond() {
		refused(1000);
	}

	@Test
	void connectionsRefusedForThreeSeconds() {
		refused(3000);
	}

	@Test
	void releaseCancelledWhileItsRequestIsHeldBack() {
		String key = key();
		long asked = System.nanoTime();
		ReactiveLockHandle handle = holder.lock(key, HOLD).block();
		Pause.millis(100);
		proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(handle.release().timeout(Duration.ofMillis(150)));
		assertKept("release cancelled, its request held back " + HELD_BACK_MS + " ms", outcome, asked, key,
				HELD_BACK_MS);
	}

	@Test
	void controlWithoutAMinimumHoldTheCancelledReleaseFreesTheKeyAtOnce() {
		String key = key();
		long asked = System.nanoTime();
		ReactiveLockHandle handle = holder.lock(key, CONTEND).block();
		Pause.millis(100);
		proxy.holdNextRequest(key, HELD_BACK_MS);
		String outcome = outcome(handle.release().timeout(Duration.ofMillis(150)));
		long next = LockCalls.firstAcquisition(contender, key, CONTEND, bound(asked));
		Figures.record("reactive minimum hold control: no minimum hold, release cancelled",
				"release gave %s; B granted the key %s after A asked for it", outcome, since(asked, next));
		assertThat(next).as("B acquired").isPositive();
		assertThat((next - asked) / 1_000_000).as("ms from A's call to B's grant").isLessThan(1000);
	}

	private void refused(long refusedMillis) {
		String key = key();
		long asked = System.nanoTime();
		ReactiveLockHandle handle = holder.lock(key, HOLD).block();
		Pause.millis(100);
		proxy.resetAll(true);
		this.outage = CompletableFuture.runAsync(proxy::passThrough,
				CompletableFuture.delayedExecutor(refusedMillis, TimeUnit.MILLISECONDS));
		assertKept("connections refused " + refusedMillis / 1000 + " s", outcome(handle.release()), asked, key, 0);
	}

	private static void assertKept(String fault, String outcome, long asked, String key, long lateMillis) {
		long next = LockCalls.firstAcquisition(contender, key, CONTEND, bound(asked));
		Figures.record("reactive minimum hold: " + fault,
				"release gave %s; B granted the key %s after A asked for it (minimum hold %d ms, lease 30 s)", outcome,
				since(asked, next), MIN_HOLD.toMillis());
		assertThat(next).as("B acquired before the lease ran out").isPositive();
		assertThat((next - asked) / 1_000_000).as("ms from A's call to B's grant")
			.isGreaterThanOrEqualTo(MIN_HOLD.toMillis())
			.isLessThanOrEqualTo(MIN_HOLD.toMillis() + COMMAND_TIMEOUT_MS + lateMillis + SLACK_MS);
	}

	/**
	 * Blocks for the outcome of a reactive call.
	 * @return {@code "no exception"} or the simple name of the error
	 */
	private static String outcome(Mono<?> call) {
		try {
			call.block(Duration.ofSeconds(10));
			return "no exception";
		}
		catch (RuntimeException ex) {
			return Exceptions.unwrap(ex).getClass().getSimpleName();
		}
	}

	/** How long B tries: until well after the latest grant the rule allows. */
	private static Duration bound(long asked) {
		long end = asked + MIN_HOLD.plusMillis(COMMAND_TIMEOUT_MS + HELD_BACK_MS + 3 * SLACK_MS).toNanos();
		return Duration.ofNanos(Math.max(0, end - System.nanoTime()));
	}

	private static String since(long asked, long next) {
		return (next > 0) ? (next - asked) / 1_000_000 + " ms" : "not within "
				+ MIN_HOLD.plusMillis(COMMAND_TIMEOUT_MS + HELD_BACK_MS + 3 * SLACK_MS).toMillis() + " ms";
	}

	private static String key() {
		return "lock:reactive-min-hold:" + UUID.randomUUID();
	}

}
