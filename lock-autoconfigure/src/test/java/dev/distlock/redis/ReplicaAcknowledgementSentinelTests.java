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
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisSentinelDeployment;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code distlock.replication.min-replicas-acked=2} on a master with 2 replicas and 3
 * Sentinels, the client built by Spring Boot from {@code spring.data.redis.sentinel.*}: a
 * grant is on both replicas before the body runs, and renewals they acknowledge keep a
 * hold for several leases. Once both replicas are cut off (a wrong {@code masterauth},
 * their connections killed), the renewals still reach the master but are not
 * acknowledged, and the hold is lost within one lease, not extended.
 */
class ReplicaAcknowledgementSentinelTests {

	/** Renewed every 400ms. */
	private static final Duration LEASE = Duration.ofMillis(1200);

	private static RedisSentinelDeployment sentinel;

	private static BootLockInstance instance;

	@BeforeAll
	static void start() {
		sentinel = RedisSentinelDeployment.start();
		instance = BootLockInstance.start("spring.data.redis.sentinel.master=" + sentinel.masterName(),
				"spring.data.redis.sentinel.nodes=" + sentinel.sentinelNodes(),
				"logging.level.dev.distlock.redis.lease=DEBUG", "distlock.replication.min-replicas-acked=2",
				"distlock.renewal.lease=" + LEASE.toMillis() + "ms");
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable closeable : new AutoCloseable[] { instance, sentinel }) {
			try {
				if (closeable != null) {
					closeable.close();
				}
			}
			catch (Exception ex) {
				// Closing the rest matters more.
			}
		}
	}

	@Test
	void grantsAndRenewalsAreAcknowledgedAndUnacknowledgedRenewalsDoNotExtendTheHold() {
		String key = "lock:acked:sentinel";
		RedisServerProcess master = sentinel.master();
		List<RedisServerProcess> replicas = sentinel.servers().stream().filter((node) -> node != master).toList();
		LockHandle handle = instance.client.lock(key, LockOptions.renewing(Duration.ZERO));
		assertThat(replicas).as("replicas with the grant when the body starts")
			.allMatch((replica) -> Long.valueOf(1).equals(RedisAdminCommands.call(replica, "EXISTS", key)));
		await().during(LEASE.multipliedBy(2))
			.atMost(LEASE.multipliedBy(2).plusSeconds(1))
			.until(() -> !handle.isLeaseLost());
		replicas.forEach((replica) -> RedisAdminCommands.call(replica, "CONFIG", "SET", "masterauth", "wrong"));
		RedisAdminCommands.call(master, "CLIENT", "KILL", "TYPE", "replica");
		long cut = System.nanoTime();
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5)).until(handle::isLeaseLost);
		long lostAfter = (System.nanoTime() - cut) / 1_000_000;
		long masterPttl = (Long) RedisAdminCommands.call(master, "PTTL", key);
		assertThat(masterPttl).as("PTTL on the master when the lease was lost: renewed there").isGreaterThan(200);
		assertThat(lostAfter).as("ms from the cut to isLeaseLost()").isLessThanOrEqualTo(LEASE.toMillis() + 50);
		assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(handle::release);
	}

}
