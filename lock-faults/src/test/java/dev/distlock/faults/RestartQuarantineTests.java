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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, "a restart that lost the data need not grant a lock twice": Redis (no
 * persistence) is killed with {@code SIGKILL} while A holds a key (renewed 3 s lease) and
 * B waits for it, and restarted empty on the same port at once. B keeps trying
 * ({@code lock} with a 10 s wait, again after each failure). What counts is the overlap
 * of beliefs: the time from B's grant until A's {@code isLeaseLost()} turned true.
 * <p>
 * With {@code distlock.restart-quarantine.enabled} the restarted server grants nothing
 * for one longest lease (3 s here) after the first script finds distlock's state gone, so
 * A's hold has run out by its own count before B can be granted the key: no overlap,
 * whether A reaches the restarted server (it learns sooner, from a renewal) or not (it
 * stays cut off through a proxy that refuses it, and learns at its deadline). Without it,
 * B is granted the key as soon as it reaches the restarted server: with A cut off the
 * overlap is most of a lease (the control); with A reconnecting it is a race of a few
 * hundred ms at most, measured and recorded.
 */
class RestartQuarantineTests {

	private static final String KEY = "lock:restart-quarantine";

	private static final Duration LEASE = Duration.ofSeconds(3);

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void withQuarantineNoOverlapWhileTheHolderIsCutOff() {
		Restart restart = restart(true, true);
		assertThat(restart.lostAtGrant()).as("A's isLeaseLost() when B was granted the key").isTrue();
		assertThat(restart.overlapMillis()).as("ms A believed it held the key while B held it").isZero();
		assertThat(restart.grantAfterRestartMillis()).as("B's first grant after Redis was back, ms")
			.isGreaterThanOrEqualTo(LEASE.toMillis());
	}

	@Test
	void withQuarantineNoOverlapWhenTheHolderReconnects() {
		Restart restart = restart(true, false);
		assertThat(restart.lostAtGrant()).as("A's isLeaseLost() when B was granted the key").isTrue();
		assertThat(restart.overlapMillis()).as("ms A believed it held the key while B held it").isZero();
		assertThat(restart.grantAfterRestartMillis()).as("B's first grant after Redis was back, ms")
			.isGreaterThanOrEqualTo(LEASE.toMillis());
	}

	@Test
	void controlWithoutQuarantineTheRestartedServerGrantsTheKeyWhileTheCutOffHolderBelievesItHoldsIt() {
		Restart restart = restart(false, true);
		assertThat(restart.lostAtGrant()).as("A's isLeaseLost() when B was granted the key").isFalse();
		assertThat(restart.overlapMillis()).as("ms A believed it held the key while B held it").isPositive();
	}

	@Test
	void withoutQuarantineAReconnectingHolderRacesTheNewGrantAndFencingOrdersThem() {
		Restart restart = restart(false, false);
		assertThat(restart.tokenB()).as("B's fencing token").isGreaterThan(restart.tokenA());
	}

	private Restart restart(boolean quarantine, boolean cutOff) {
		RedisNode redis = track(RedisNode.start(Persistence.NONE));
		FaultProxy proxyA = track(FaultProxy.start(redis.port()));
		LockApps apps = track(new LockApps());
		String[] properties = { "spring.data.redis.timeout=1s", "distlock.renewal.lease=" + LEASE.toMillis() + "ms",
				"distlock.restart-quarantine.enabled=" + quarantine };
		// A cut off goes through a proxy that refuses it from the kill on; a reconnecting
		// A
		// connects directly, and sees the kill as a lost connection.
		LockClient clientA = apps.client(cutOff ? proxyA.port() : redis.port(), properties);
		LockClient clientB = apps.client(redis.port(), properties);
		long firstAttempt = System.nanoTime();
		// On this thread, which lives through the scenario: a hold whose thread ended is
		// no longer renewed.
		LockHandle holderA = clientA.lock(KEY, LockOptions.renewing(Duration.ofSeconds(10)));
		long firstGrant = System.nanoTime();
		AtomicBoolean stop = new AtomicBoolean();
		CompletableFuture<Grant> grantB = CompletableFuture.supplyAsync(() -> contend(clientB, holderA, stop));
		// B is waiting in Redis (queued) when Redis dies.
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> Resp.number(redis.port(), "EXISTS", "distlock:queue:" + KEY) == 1);
		CompletableFuture<Long> lostAt = CompletableFuture
			.supplyAsync(() -> LockCalls.leaseLostAt(holderA, LEASE.multipliedBy(4)));
		long killed = redis.kill();
		if (cutOff) {
			proxyA.resetAll(true);
		}
		long back = redis.restart();
		Grant granted = grantB.completeOnTimeout(null, 15, TimeUnit.SECONDS).join();
		stop.set(true);
		long lost = lostAt.join();
		long overlap = (granted == null) ? 0
				: Math.max(0, ((lost < 0) ? System.nanoTime() : lost) - granted.at()) / 1_000_000;
		Restart restart = new Restart(granted != null && granted.lostAtGrant(), overlap,
				(granted != null) ? (granted.at() - back) / 1_000_000 : -1, holderA.fencingToken(),
				(granted != null) ? granted.token() : -1);
		Figures.record("restart quarantine",
				"quarantine %s, lease %d ms, A %s: first grant on the fresh server %d ms after the first attempt; "
						+ "Redis down %d ms; B granted %s ms after Redis was back; A's isLeaseLost() true %s ms after "
						+ "Redis was back (%s at B's grant): overlap %d ms; tokens A %d, B %d",
				quarantine ? "on" : "off", LEASE.toMillis(), cutOff ? "cut off" : "reconnecting",
				(firstGrant - firstAttempt) / 1_000_000, (back - killed) / 1_000_000,
				(granted != null) ? restart.grantAfterRestartMillis() : "never",
				(lost < 0) ? "never" : (lost - back) / 1_000_000, restart.lostAtGrant(), overlap, restart.tokenA(),
				restart.tokenB());
		LockCalls.release(holderA);
		assertThat(granted).as("B granted the key after the restart").isNotNull();
		return restart;
	}

	/**
	 * Acquires the key for B until granted or stopped, again after each failure (Redis
	 * down); reports when B was granted it, and whether A knew its lease lost by then.
	 */
	private static Grant contend(LockClient clientB, LockHandle holderA, AtomicBoolean stop) {
		while (!stop.get()) {
			try {
				LockHandle holderB = clientB.lock(KEY, LockOptions.renewing(Duration.ofSeconds(10)));
				long at = System.nanoTime();
				boolean lostAtGrant = holderA.isLeaseLost();
				LockCalls.release(holderB);
				return new Grant(at, lostAtGrant, holderB.fencingToken());
			}
			catch (RuntimeException ex) {
				Pause.millis(20);
			}
		}
		return null;
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	private record Grant(long at, boolean lostAtGrant, long token) {
	}

	private record Restart(boolean lostAtGrant, long overlapMillis, long grantAfterRestartMillis, long tokenA,
			long tokenB) {
	}

}
