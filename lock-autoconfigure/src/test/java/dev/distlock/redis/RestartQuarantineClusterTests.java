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

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisClusterDeployment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The restart quarantine on a fresh Redis Cluster, where every hash slot has a fencing
 * counter of its own: the first lock of a slot starts that slot's quarantine, with its
 * key in the slot on the slot's master, a slot whose counter exists is not held back, and
 * several keys under one hash tag wait the quarantine out like one key.
 */
class RestartQuarantineClusterTests {

	private static final Duration QUARANTINE = Duration.ofSeconds(1);

	private static final LockOptions NO_WAIT = LockOptions.renewing(Duration.ZERO);

	private static final LockOptions WAIT = LockOptions.renewing(Duration.ofSeconds(5));

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
	void eachSlotIsQuarantinedOnItsFirstLock() {
		String first = "lock:quarantine:a";
		String second = "lock:quarantine:b";
		assertThat(LockKeyspace.slot(first)).isNotEqualTo(LockKeyspace.slot(second));
		try (ClusterLockSide side = new ClusterLockSide(cluster, true,
				(builder) -> builder.renewalLease(QUARANTINE).restartQuarantine(QUARANTINE))) {
			long start = System.nanoTime();
			assertThat(side.client.tryLock(first, NO_WAIT)).as("the first lock of its slot").isEmpty();
			String quarantineKey = ClusterLockSide.KEYSPACE.quarantineKey(first);
			assertThat(LockKeyspace.slot(quarantineKey)).isEqualTo(LockKeyspace.slot(first));
			assertThat(RedisAdminCommands.call(cluster.masterOf(first), "EXISTS", quarantineKey))
				.as("the quarantine key on the slot's master")
				.isEqualTo(1L);
			try (LockHandle held = side.client.lock(first, WAIT)) {
				assertThat(Duration.ofNanos(System.nanoTime() - start))
					.isGreaterThanOrEqualTo(QUARANTINE.minusMillis(50));
			}
			assertThat(side.client.tryLock(second, NO_WAIT)).as("the first lock of another slot").isEmpty();
			try (LockHandle held = side.client.lock(second, WAIT)) {
				assertThat(side.client.tryLock(first, NO_WAIT)).as("a slot whose counter exists").isPresent();
			}
		}
	}

	@Test
	void severalKeysOfOneSlotWaitTheQuarantineOut() {
		List<String> keys = List.of("lock:{quarantine-tag}:x", "lock:{quarantine-tag}:y");
		try (ClusterLockSide side = new ClusterLockSide(cluster, true,
				(builder) -> builder.renewalLease(QUARANTINE).restartQuarantine(QUARANTINE))) {
			long start = System.nanoTime();
			assertThat(side.client.tryLock(keys, NO_WAIT)).isEmpty();
			try (LockHandle held = side.client.lock(keys, WAIT)) {
				assertThat(held.keys()).containsExactlyInAnyOrderElementsOf(keys);
				assertThat(Duration.ofNanos(System.nanoTime() - start))
					.isGreaterThanOrEqualTo(QUARANTINE.minusMillis(50));
			}
		}
	}

}
