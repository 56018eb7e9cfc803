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
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.concurrent.ConcurrentRunner;
import dev.distlock.test.concurrent.HoldLog;
import dev.distlock.test.redis.RedisClusterDeployment;
import dev.distlock.test.redis.RedisServerProcess;
import dev.distlock.testing.RedisCommandCounts;
import dev.distlock.testing.TestRedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several keys on a Redis Cluster: keys in different slots are taken one by one in the
 * global order (no deadlock between opposite orders in two processes), keys that a hash
 * tag puts in one slot are taken with one script on that slot's master.
 */
class MultiKeyClusterTests {

	private static final LockOptions FIXED = new LockOptions(Duration.ofSeconds(30), Duration.ofSeconds(30));

	private static RedisClusterDeployment cluster;

	@BeforeAll
	static void startCluster() {
		cluster = RedisClusterDeployment.start();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@Test
	void keysInDifferentSlotsAreTakenInOrderWithoutDeadlock() throws Exception {
		String x = "lock:multi:account:1";
		String y = "lock:multi:account:2";
		assertThat(LockKeyspace.slot(x)).isNotEqualTo(LockKeyspace.slot(y));
		int threads = 4;
		int iterations = 20;
		long[] balances = new long[2];
		HoldLog log = new HoldLog();
		try (ClusterLockSide one = new ClusterLockSide(cluster, true);
				ClusterLockSide two = new ClusterLockSide(cluster, true)) {
			try (LockHandle held = one.client.lock(List.of(y, x), FIXED)) {
				assertThat(held.keys()).containsExactlyInAnyOrder(x, y);
				assertThat(held.fencingToken(x)).isNotEqualTo(held.fencingToken(y));
				assertThat(two.client.tryLock(x, FIXED.withWaitTime(Duration.ZERO))).isEmpty();
				assertThat(two.client.tryLock(y, FIXED.withWaitTime(Duration.ZERO))).isEmpty();
			}
			ConcurrentRunner.run(threads, iterations, (thread) -> {
				ClusterLockSide side = (thread < 2) ? one : two;
				int from = thread % 2;
				try (LockHandle held = side.client.lock((from == 0) ? List.of(x, y) : List.of(y, x), FIXED)) {
					long start = System.nanoTime();
					long debit = balances[from];
					long credit = balances[1 - from];
					Thread.yield();
					balances[from] = debit - 1;
					balances[1 - from] = credit + 1;
					log.record(start, System.nanoTime());
				}
			});
			assertThat(one.redis.hasKey(x) || one.redis.hasKey(y)).isFalse();
		}
		log.assertSerial(threads * iterations);
		assertThat(balances).containsExactly(0, 0);
	}

	@Test
	void keysOfOneHashTagAreTakenWithOneScript() {
		String x = "lock:{account}:1";
		String y = "lock:{account}:2";
		RedisServerProcess master = cluster.masterOf(x);
		LettuceConnectionFactory factory = TestRedis.connectionFactory(master);
		try (ClusterLockSide side = new ClusterLockSide(cluster, true)) {
			StringRedisTemplate node = TestRedis.template(factory);
			side.client.lock(List.of("lock:{account}:warm-up", "lock:{account}:warm-up-too"), FIXED).release();
			long before = RedisCommandCounts.calls(node, "evalsha");
			LockHandle held = side.client.lock(List.of(y, x), FIXED);
			assertThat(RedisCommandCounts.calls(node, "evalsha") - before).as("scripts to lock both keys").isEqualTo(1);
			assertThat(held.keys()).containsExactly(x, y);
			assertThat(held.fencingToken(y)).isGreaterThan(held.fencingToken(x));
			held.release();
			assertThat(side.redis.hasKey(x) || side.redis.hasKey(y)).isFalse();
		}
		finally {
			factory.destroy();
		}
	}

}
