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
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10, finding 1: fencing tokens must increase strictly across everything that makes
 * Redis lose its counter: a restart without persistence, a restore from an older
 * snapshot, a restart with {@code appendfsync always}, {@code SCRIPT FLUSH} and a deleted
 * counter key. The control shows that a plain {@code INCR} counter does go back under the
 * same faults.
 */
class FencingAcrossRestartsTests {

	private static final String KEY = "lock:fencing";

	private static final LockOptions OPTIONS = new LockOptions(Duration.ofSeconds(2), Duration.ofSeconds(10));

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void tokensIncreaseAcrossRestartWithoutPersistence() {
		assertTokensIncreaseAcross("restart, no persistence", Persistence.NONE, (redis) -> restart(redis));
	}

	@Test
	void tokensIncreaseAcrossRestoreOfOlderSnapshot() {
		assertTokensIncreaseAcross("restart from an older RDB snapshot", Persistence.RDB, (redis) -> restart(redis));
	}

	@Test
	void tokensIncreaseAcrossRestartWithAppendOnlyFsyncAlways() {
		assertTokensIncreaseAcross("restart, AOF fsync always", Persistence.AOF_ALWAYS, (redis) -> restart(redis));
	}

	@Test
	void tokensIncreaseAcrossScriptFlushAndDeletedCounter() {
		assertTokensIncreaseAcross("SCRIPT FLUSH + DEL distlock:fence", Persistence.NONE, (redis) -> {
			Resp.call(redis.port(), "SCRIPT", "FLUSH");
			Resp.call(redis.port(), "DEL", "distlock:fence");
		});
	}

	@Test
	void controlPlainIncrCounterGoesBackAcrossRestartAndSnapshotRestore() {
		RedisNode empty = track(RedisNode.start(Persistence.NONE));
		long before = incr(empty, 50);
		restart(empty);
		long after = incr(empty, 1);
		RedisNode snapshot = track(RedisNode.start(Persistence.RDB));
		incr(snapshot, 10);
		snapshot.save();
		long beforeRestore = incr(snapshot, 10);
		restart(snapshot);
		long afterRestore = incr(snapshot, 1);
		Figures.record("fencing control", "INCR %d -> %d after restart, %d -> %d after snapshot restore", before, after,
				beforeRestore, afterRestore);
		assertThat(after).isLessThanOrEqualTo(before);
		assertThat(afterRestore).isLessThanOrEqualTo(beforeRestore);
	}

	@Test
	void staleHolderIsFencedOffAfterRedisRestartsEmpty() {
		RedisNode redis = track(RedisNode.start(Persistence.NONE));
		RedisNode store = track(RedisNode.start(Persistence.NONE));
		LockApps apps = track(new LockApps());
		LockClient clientA = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		LockClient clientB = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		grant(clientB, 5);
		LockHandle holderA = clientA.lock(KEY, LockOptions.renewing(Duration.ZERO));
		restart(redis);
		long back = System.nanoTime();
		LockHandle holderB = LockCalls.lockEventually(clientB, KEY, OPTIONS);
		try (FencedResource resource = new FencedResource(store.port())) {
			boolean acceptedB = resource.writeFenced("fenced:account", holderB.fencingToken(), "B");
			boolean acceptedA = resource.writeFenced("fenced:account", holderA.fencingToken(), "A (stale)");
			long learned = LockCalls.leaseLostAt(holderA, Duration.ofSeconds(12));
			Figures.record("fencing Kleppmann", "A token %d, B token %d after an empty restart; B's write "
					+ "accepted=%s, A's stale write accepted=%s; A learned of its lost lease %s after Redis was back",
					holderA.fencingToken(), holderB.fencingToken(), acceptedB, acceptedA,
					(learned < 0) ? "not within 12 s" : (learned - back) / 1_000_000 + " ms");
			assertThat(holderB.fencingToken()).isGreaterThan(holderA.fencingToken());
			assertThat(acceptedB).as("B's fenced write").isTrue();
			assertThat(acceptedA).as("A's stale fenced write").isFalse();
		}
		finally {
			LockCalls.release(holderB);
			LockCalls.release(holderA);
		}
	}

	private void assertTokensIncreaseAcross(String name, Persistence persistence, Consumer<RedisNode> fault) {
		RedisNode redis = track(RedisNode.start(persistence));
		LockApps apps = track(new LockApps());
		LockClient client = apps.client(redis.port(), "spring.data.redis.timeout=2s");
		List<Long> tokens = new ArrayList<>(grant(client, 20));
		if (persistence == Persistence.RDB) {
			redis.save();
			tokens.addAll(grant(client, 20));
		}
		int before = tokens.size();
		fault.accept(redis);
		tokens.addAll(grant(client, 200));
		long[] order = tokens.stream().mapToLong(Long::longValue).toArray();
		int broken = TokenOrder.notGreaterThanEarlier(order);
		Figures.record("fencing: " + name,
				"last token before %d, first after %d, %d of %d tokens after the fault "
						+ "not greater than an earlier one",
				order[before - 1], order[before], broken, order.length - before);
		assertThat(broken)
			.as("tokens not greater than an earlier one, around %s",
					Arrays.toString(Arrays.copyOfRange(order, before - 3, before + 3)))
			.isZero();
	}

	private static List<Long> grant(LockClient client, int count) {
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			LockHandle handle = LockCalls.lockEventually(client, KEY, OPTIONS);
			tokens.add(handle.fencingToken());
			handle.release();
		}
		return tokens;
	}

	private static long incr(RedisNode redis, int times) {
		long value = 0;
		for (int i = 0; i < times; i++) {
			value = Resp.number(redis.port(), "INCR", "plain:fence");
		}
		return value;
	}

	static void restart(RedisNode redis) {
		redis.kill();
		redis.restart();
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(resource);
		return resource;
	}

}
