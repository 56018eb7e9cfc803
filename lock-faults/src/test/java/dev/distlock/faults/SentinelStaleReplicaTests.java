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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisSentinelDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14, item 4 with Redis Sentinel, the lagging replica: the replicas stop receiving
 * the master's writes (they are disconnected and kept out with a wrong
 * {@code masterauth}), A takes more grants and holds five keys, then the master is killed
 * and a replica that never saw those writes is promoted. Tokens granted after the
 * failover must exceed every token granted before it (the control, a plain {@code INCR},
 * goes back); A must be told of every lost lease ({@code isLeaseLost()}, the listener,
 * {@code LockLeaseLostException} at release). The overlap this allows (B granted a key on
 * the new master while A still believed it held it) is measured, not hidden: asynchronous
 * replication makes it possible, and only fencing protects against it.
 */
class SentinelStaleReplicaTests {

	private static final int HELD_KEYS = 5;

	private static final LockOptions GRANT = new LockOptions(Duration.ofSeconds(2), Duration.ofSeconds(10));

	private static RedisSentinelDeployment sentinel;

	private static LockApps apps;

	private static LockClient clientA;

	private static LeaseLostRecorder listenerA;

	private static LockClient clientB;

	@BeforeAll
	static void start() {
		sentinel = RedisSentinelDeployment.start();
		apps = new LockApps();
		ConfigurableApplicationContext contextA = apps.startOnSentinel(sentinel.masterName(), sentinel.sentinelNodes(),
				"spring.data.redis.timeout=1s");
		clientA = contextA.getBean(LockClient.class);
		listenerA = contextA.getBean(LeaseLostRecorder.class);
		clientB = apps.startOnSentinel(sentinel.masterName(), sentinel.sentinelNodes(), "spring.data.redis.timeout=1s")
			.getBean(LockClient.class);
	}

	@AfterAll
	static void stop() {
		apps.close();
		sentinel.close();
	}

	@Test
	void tokensIncreaseAndLostLeasesAreReportedWhenAStaleReplicaIsPromoted() {
		RedisServerProcess master = sentinel.master();
		long replicatedToken = grant("lock:stale:counter", 5);
		long replicatedIncr = incr(master, 5);
		cutReplication(master);
		long lastTokenBefore = grant("lock:stale:counter", 5);
		long lastIncrBefore = incr(master, 5);
		List<LockHandle> held = new ArrayList<>();
		for (int i = 0; i < HELD_KEYS; i++) {
			held.add(clientA.lock("lock:stale:held-" + i, LockOptions.renewing(Duration.ofSeconds(2))));
			lastTokenBefore = Math.max(lastTokenBefore, held.get(i).fencingToken());
		}
		List<CompletableFuture<Long>> lostAt = held.stream()
			.map((handle) -> CompletableFuture.supplyAsync(() -> LockCalls.leaseLostAt(handle, Duration.ofSeconds(15))))
			.toList();
		long kill = System.nanoTime();
		sentinel.kill(master);
		RedisServerProcess promoted = sentinel.awaitPromotion(Duration.ofSeconds(20));
		long promotion = System.nanoTime();
		List<Long> grantedB = new ArrayList<>();
		List<Long> tokensB = new ArrayList<>();
		for (int i = 0; i < HELD_KEYS; i++) {
			LockHandle b = LockCalls.lockEventually(clientB, "lock:stale:held-" + i,
					LockOptions.renewing(Duration.ZERO));
			grantedB.add(System.nanoTime());
			tokensB.add(b.fencingToken());
			b.release();
		}
		long firstTokenAfter = grant("lock:stale:counter", 1);
		long incrAfter = incr(promoted, 1);
		List<String> releases = held.stream().map(LockCalls::release).toList();
		List<Long> overlaps = new ArrayList<>();
		List<Long> toldAfterPromotion = new ArrayList<>();
		int reportedLost = 0;
		int listenerEvents = 0;
		for (int i = 0; i < HELD_KEYS; i++) {
			long lost = lostAt.get(i).join();
			reportedLost += (lost > 0) ? 1 : 0;
			toldAfterPromotion.add((lost > 0) ? (lost - promotion) / 1_000_000 : -1);
			listenerEvents += (listenerA.lostAt("lock:stale:held-" + i) > 0) ? 1 : 0;
			overlaps.add((lost > 0) ? Math.max(0, (lost - grantedB.get(i)) / 1_000_000) : Long.MAX_VALUE);
		}
		long overlapping = overlaps.stream().filter((millis) -> millis > 0).count();
		Figures.record("sentinel stale replica",
				"promotion %d ms after the kill; last token before %d (last replicated %d), tokens after %s and %d; "
						+ "control INCR %d -> %d (last replicated %d)",
				(promotion - kill) / 1_000_000, lastTokenBefore, replicatedToken, tokensB, firstTokenAfter,
				lastIncrBefore, incrAfter, replicatedIncr);
		Figures.record("sentinel stale replica overlap",
				"%d trials (keys held at the kill, missing on the promoted replica): B granted each %s ms after "
						+ "the promotion; A's hold overlapped B's in %d, by %s ms; A told lost %d (listener %d), "
						+ "%s ms after the promotion; releases %s",
				HELD_KEYS, grantedB.stream().map((at) -> (at - promotion) / 1_000_000).toList(), overlapping, overlaps,
				reportedLost, listenerEvents, toldAfterPromotion, releases);
		long before = lastTokenBefore;
		assertThat(tokensB).as("tokens after the failover").allMatch((token) -> token > before);
		assertThat(firstTokenAfter).isGreaterThan(before);
		assertThat(incrAfter).as("control: plain INCR after the failover").isLessThanOrEqualTo(lastIncrBefore);
		assertThat(reportedLost).as("holds that saw isLeaseLost()").isEqualTo(HELD_KEYS);
		assertThat(listenerEvents).as("leaseLost listener events").isEqualTo(HELD_KEYS);
		assertThat(releases).as("release outcomes").containsOnly("LockLeaseLostException");
	}

	private static long grant(String key, int times) {
		long token = 0;
		for (int i = 0; i < times; i++) {
			try (LockHandle handle = LockCalls.lockEventually(clientA, key, GRANT)) {
				token = handle.fencingToken();
			}
		}
		return token;
	}

	private static long incr(RedisServerProcess node, int times) {
		Object value = null;
		for (int i = 0; i < times; i++) {
			value = RedisAdminCommands.call(node, "INCR", "plain:fence");
		}
		return (Long) value;
	}

	/**
	 * Disconnects the replicas and keeps them from syncing again (a wrong
	 * {@code masterauth}), so that the master's next writes reach none of them, whichever
	 * is promoted.
	 */
	private static void cutReplication(RedisServerProcess master) {
		List<RedisServerProcess> replicas = sentinel.servers().stream().filter((node) -> node != master).toList();
		replicas.forEach((replica) -> RedisAdminCommands.call(replica, "CONFIG", "SET", "masterauth", "wrong"));
		RedisAdminCommands.call(master, "CLIENT", "KILL", "TYPE", "replica");
		await().atMost(Duration.ofSeconds(5))
			.until(() -> replicas.stream()
				.allMatch((replica) -> RedisAdminCommands.text(replica, "INFO", "replication")
					.contains("master_link_status:down")));
	}

}
