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
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 2: a holder behind a network blackhole (connections open, nothing
 * delivered) must know its lease is lost at or before the moment another instance
 * acquires the lock, and no later than its lease after the last send Redis confirmed,
 * whatever the command timeout. The control is a naive holder that believes it holds the
 * lock until a renewal says otherwise.
 */
class BlackholeTests {

	private static final long LEASE_MS = 3000;

	private static final long SLACK_MS = 50;

	private static final String KEY_ON_SERVER = "holder's key on the server (until its PTTL ran out)";

	private static final String BELIEVED = "holder believes it holds the lock";

	private static final String OTHER = "other instance holds the lock";

	/**
	 * Each run's time line, drawn in {@code target/fault-charts/blackhole.png} after the
	 * class (docs/faults.md shows a copy).
	 */
	private static final FaultTimeline TIMELINE = new FaultTimeline("blackhole",
			"A holder behind a blackhole: what it believed against its key's life in Redis", "blackhole begins",
			KEY_ON_SERVER, BELIEVED, OTHER);

	private static RedisNode redis;

	private static FaultProxy shortTimeoutProxy;

	private static FaultProxy defaultTimeoutProxy;

	private static WorkerJvm shortTimeoutHolder;

	private static WorkerJvm defaultTimeoutHolder;

	private static WorkerJvm acquirer;

	private static int runs;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		shortTimeoutProxy = FaultProxy.start(redis.port());
		defaultTimeoutProxy = FaultProxy.start(redis.port());
		shortTimeoutHolder = WorkerJvm.start("holder-2s", LockApps.properties(shortTimeoutProxy.port(),
				"spring.data.redis.timeout=2s", "distlock.renewal.lease=3s"));
		defaultTimeoutHolder = WorkerJvm.start("holder-60s",
				LockApps.properties(defaultTimeoutProxy.port(), "distlock.renewal.lease=3s"));
		acquirer = WorkerJvm.start("acquirer", LockApps.properties(redis.port(), "spring.data.redis.timeout=2s"));
	}

	@AfterEach
	void heal() {
		for (FaultProxy proxy : List.of(shortTimeoutProxy, defaultTimeoutProxy)) {
			proxy.passThrough();
			proxy.resetAll(false);
		}
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable resource : new AutoCloseable[] { acquirer, defaultTimeoutHolder, shortTimeoutHolder,
				defaultTimeoutProxy, shortTimeoutProxy, redis }) {
			closeQuietly(resource);
		}
		if (!TIMELINE.runs().isEmpty()) {
			System.out.println("FAULTS time line: " + TIMELINE.write(FaultTimeline.DIRECTORY).toAbsolutePath());
		}
	}

	@Test
	void fixedLeaseHolderKnowsBeforeAnotherAcquires() {
		assertLossKnownInTime("fixed 3 s lease, timeout 2s", shortTimeoutHolder, shortTimeoutProxy, "3000");
	}

	@Test
	void renewedLeaseHolderKnowsBeforeAnotherAcquires() {
		assertLossKnownInTime("renewed 3 s lease, timeout 2s", shortTimeoutHolder, shortTimeoutProxy, "renew");
	}

	@Test
	void renewedLeaseHolderWithDefaultTimeoutKnowsBeforeAnotherAcquires() {
		assertLossKnownInTime("renewed 3 s lease, Lettuce default timeout", defaultTimeoutHolder, defaultTimeoutProxy,
				"renew");
	}

	@Test
	void controlNaiveHolderStillBelievesItHoldsWhenAnotherAcquires() throws Exception {
		String key = "lock:blackhole:naive";
		try (LockApps apps = new LockApps()) {
			ConfigurableApplicationContext context = apps.start(shortTimeoutProxy.port(),
					"spring.data.redis.timeout=2s");
			StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
			String owner = UUID.randomUUID().toString();
			long set = System.nanoTime();
			assertThat(template.opsForValue().setIfAbsent(key, owner, Duration.ofMillis(LEASE_MS))).isTrue();
			AtomicBoolean believesHeld = new AtomicBoolean(true);
			Thread renewer = new Thread(() -> renewNaively(template, key, owner, believesHeld), "naive-renewer");
			renewer.setDaemon(true);
			renewer.start();
			Pause.millis(500);
			long blackhole = System.nanoTime();
			shortTimeoutProxy.blackhole();
			long keyExpired = keyExpiry(key);
			acquirer.send("hold c1 " + key + " 1000 200 8000");
			long acquired = Long.parseLong(acquirer.await("acquired c1", Duration.ofSeconds(10))[3]);
			boolean both = believesHeld.get();
			Figures.record("blackhole control",
					"naive holder (lost only when a renewal says so) still believed it held "
							+ "the lock when another acquired it %d ms into the blackhole: %s",
					(acquired - blackhole) / 1_000_000, both);
			long released = Long.parseLong(acquirer.await("released c1", Duration.ofSeconds(5))[2]);
			// Nothing tells a naive holder behind a blackhole: it believes it holds
			// the lock until it is stopped, after the other's hold.
			boolean stillBelieved = believesHeld.get();
			long checked = System.nanoTime();
			believesHeld.set(false);
			String run = "control: naive holder, renewal every 1 s, timeout 2s";
			TIMELINE.add(run, KEY_ON_SERVER, blackhole, set, keyExpired)
				.add(run, BELIEVED, blackhole, set, stillBelieved ? checked : (both ? acquired : blackhole))
				.add(run, OTHER, blackhole, acquired, released);
			assertThat(both).isTrue();
		}
	}

	private void assertLossKnownInTime(String name, WorkerJvm holder, FaultProxy proxy, String lease) {
		String key = null;
		String run = null;
		String[] acquiredReply = null;
		for (int attempt = 1; acquiredReply == null; attempt++) {
			key = "lock:blackhole:" + UUID.randomUUID();
			run = String.valueOf(runs++);
			holder.send("hold h" + run + " " + key + " " + lease + " -1 0");
			acquiredReply = acquiredOrFailed(holder, "h" + run, attempt);
		}
		long held = Long.parseLong(acquiredReply[3]);
		Pause.millis(1200);
		long blackhole = System.nanoTime();
		proxy.blackhole();
		long keyExpired = keyExpiry(key);
		acquirer.send("hold b" + run + " " + key + " 1000 500 10000");
		long acquired = Long.parseLong(acquirer.await("acquired b" + run, Duration.ofSeconds(12))[3]);
		String[] lost = holder.poll("lost h" + run,
				Duration.ofNanos(Math.max(0, acquired + TimeUnit.SECONDS.toNanos(8) - System.nanoTime())));
		long polled = System.nanoTime();
		long lostAt = (lost != null) ? Long.parseLong(lost[2]) : Long.MAX_VALUE;
		Figures
			.record("blackhole: " + name,
					"other instance acquired %d ms into the blackhole; holder's isLeaseLost() " + "true %s",
					(acquired - blackhole) / 1_000_000,
					(lost != null) ? ((lostAt - acquired) / 1_000_000 + " ms after that ("
							+ (lostAt - blackhole) / 1_000_000 + " ms into the blackhole)")
							: "not within 8 s after that");
		holder.send("release h" + run);
		long released = Long.parseLong(acquirer.await("released b" + run, Duration.ofSeconds(5))[2]);
		TIMELINE.add(name, KEY_ON_SERVER, blackhole, held, keyExpired)
			.add(name, BELIEVED, blackhole, held, (lost != null) ? lostAt : polled)
			.add(name, OTHER, blackhole, acquired, released);
		assertThat(lostAt).as("lease lost known at or before the other acquired").isLessThanOrEqualTo(acquired);
		assertThat(lostAt - blackhole).as("lease lost known within the lease after the last confirmed send")
			.isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(LEASE_MS + SLACK_MS));
	}

	/**
	 * Waits for the holder's reply to a hold: the heal after the previous scenario reset
	 * the holder's connections, and its first acquire can meet that reset before Lettuce
	 * reconnects, and fail (closed, as it must). Such a failure is retried under a new
	 * name and key, twice at most; the scenario starts once the holder holds the lock.
	 * @return the words of the acquired reply, or null after a failure to retry
	 */
	private static String @Nullable [] acquiredOrFailed(WorkerJvm holder, String id, int attempt) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() - deadline < 0) {
			String[] acquired = holder.poll("acquired " + id, Duration.ofMillis(50));
			if (acquired != null) {
				return acquired;
			}
			String[] failed = holder.poll("error " + id, Duration.ZERO);
			if (failed != null) {
				assertThat(attempt).as("the holder's acquire after the heal failed: %s", String.join(" ", failed))
					.isLessThan(3);
				return null;
			}
		}
		return holder.await("acquired " + id, Duration.ZERO);
	}

	/**
	 * When the key will expire in Redis, from its PTTL, read on a direct connection (the
	 * proxy's blackhole does not touch it).
	 * @param key the key
	 * @return {@link System#nanoTime()} at expiry, or now if the key is gone
	 */
	private static long keyExpiry(String key) {
		long sampled = System.nanoTime();
		Long pttl = Resp.number(redis.port(), "PTTL", key);
		return (pttl != null && pttl > 0) ? sampled + TimeUnit.MILLISECONDS.toNanos(pttl) : sampled;
	}

	private static void renewNaively(StringRedisTemplate template, String key, String owner, AtomicBoolean held) {
		RedisScript<Long> renew = RedisScript.of("if redis.call('get', KEYS[1]) == ARGV[1] then "
				+ "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end", Long.class);
		while (held.get()) {
			try {
				Long renewed = template.execute(renew, List.of(key), owner, String.valueOf(LEASE_MS));
				if (renewed != null && renewed == 0) {
					held.set(false);
				}
			}
			catch (RuntimeException ex) {
				// A naive holder treats a failed renewal as "try again".
			}
			Pause.millis(LEASE_MS / 3);
		}
	}

	private static void closeQuietly(AutoCloseable resource) {
		try {
			if (resource != null) {
				resource.close();
			}
		}
		catch (Exception ex) {
			// Best effort.
		}
	}

}
