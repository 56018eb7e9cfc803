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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, finding 6 (first half): with {@code distlock.replication.min-replicas-acked},
 * a failover to a replica that missed the holder's renewals. A master and its replica; A
 * holds a key (renewed 3 s lease, its grant acknowledged by the replica), then the
 * replica is cut off ({@link ReplicationCut}), so that A's next renewal reaches the
 * master only. Once it has (the master's {@code PTTL} of the key is above the replica's),
 * the master is killed with {@code SIGKILL} and the replica promoted
 * ({@code REPLICAOF NO ONE}). A cannot reach the promoted replica (as when a partition
 * keeps the old holder with the old master): what it believes rests on its local deadline
 * alone. B tries the key on the promoted replica every 20 ms. A's {@code isLeaseLost()}
 * must be true when B is granted the key, which the replica keeps only until the lease of
 * the last write it received runs out. The control without acknowledgement shows the
 * overlap: the unacknowledged renewal moved A's deadline past the replica's expiry.
 */
class AcknowledgedRenewalFailoverTests {

	private static final String KEY = "lock:acked-renewal";

	private static final Duration LEASE = Duration.ofSeconds(3);

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
	}

	@Test
	void oldHolderKnowsItsLeaseIsLostBeforeThePromotedReplicaGrantsTheKey() {
		Failover failover = failover(1);
		assertThat(failover.lostAtGrant()).as("A's isLeaseLost() when B was granted the key").isTrue();
		assertThat(failover.overlapMillis()).as("ms A believed it held the key while B held it").isZero();
	}

	@Test
	void controlWithoutAcknowledgementTheOldHolderStillBelievesItHoldsTheKey() {
		Failover failover = failover(0);
		assertThat(failover.lostAtGrant()).as("A's isLeaseLost() when B was granted the key").isFalse();
		assertThat(failover.overlapMillis()).as("ms A believed it held the key while B held it").isPositive();
	}

	private Failover failover(int replicasAcked) {
		RedisServerProcess master = track(RedisServerProcess.startOnFreePort());
		RedisServerProcess replica = track(
				RedisServerProcess.startOnFreePort("--replicaof", "127.0.0.1", String.valueOf(master.port())));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> RedisAdminCommands.text(replica, "INFO", "replication").contains("master_link_status:up"));
		LockApps apps = track(new LockApps());
		LockClient clientA = apps.client(master.port(), "spring.data.redis.timeout=1s",
				"distlock.renewal.lease=" + LEASE.toMillis() + "ms",
				"distlock.replication.min-replicas-acked=" + replicasAcked);
		LockClient clientB = apps.client(replica.port(), "spring.data.redis.timeout=1s");
		long granted = System.nanoTime();
		LockHandle holderA = clientA.lock(KEY, LockOptions.renewing(Duration.ZERO));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> RedisAdminCommands.call(replica, "EXISTS", KEY), (exists) -> Long.valueOf(1).equals(exists));
		ReplicationCut.cut(master, replica);
		long cut = System.nanoTime();
		// A renewal reached the master after the cut: the master keeps the key longer
		// than the replica.
		await().atMost(LEASE).pollInterval(Duration.ofMillis(10)).until(() -> pttl(master) - pttl(replica) > 300);
		long masterPttl = pttl(master);
		long replicaPttl = pttl(replica);
		CompletableFuture<Long> lostAt = CompletableFuture
			.supplyAsync(() -> LockCalls.leaseLostAt(holderA, LEASE.multipliedBy(3)));
		master.crash();
		long killed = System.nanoTime();
		RedisAdminCommands.call(replica, "REPLICAOF", "NO", "ONE");
		long promoted = System.nanoTime();
		long grantedB = -1;
		boolean lostAtGrant = false;
		long deadline = System.nanoTime() + LEASE.multipliedBy(2).toNanos();
		while (grantedB < 0 && System.nanoTime() - deadline < 0) {
			try {
				LockHandle holderB = clientB.tryLock(KEY, LockOptions.renewing(Duration.ZERO)).orElse(null);
				if (holderB != null) {
					grantedB = System.nanoTime();
					lostAtGrant = holderA.isLeaseLost();
					holderB.release();
				}
			}
			catch (RuntimeException ex) {
				// Not reachable yet: try again.
			}
			if (grantedB < 0) {
				Pause.millis(20);
			}
		}
		long lost = lostAt.join();
		long overlap = (grantedB < 0) ? 0 : Math.max(0, ((lost < 0) ? System.nanoTime() : lost) - grantedB);
		Failover failover = new Failover(grantedB > 0, lostAtGrant, overlap / 1_000_000);
		Figures.record("acknowledged renewal failover",
				"min-replicas-acked=%d, lease %d ms: replica cut %d ms after A's grant; PTTL master %d, replica %d; "
						+ "master killed %d ms after the grant, replica promoted %d ms later; B granted %s ms after "
						+ "A's grant; A's isLeaseLost() true %s ms after its grant (%s at B's grant): overlap %d ms",
				replicasAcked, LEASE.toMillis(), millis(cut - granted), masterPttl, replicaPttl,
				millis(killed - granted), millis(promoted - killed),
				(grantedB < 0) ? "never" : millis(grantedB - granted), (lost < 0) ? "never" : millis(lost - granted),
				lostAtGrant, failover.overlapMillis());
		LockCalls.release(holderA);
		assertThat(failover.bGranted()).as("B granted the key on the promoted replica").isTrue();
		return failover;
	}

	private static long pttl(RedisServerProcess node) {
		return (Long) RedisAdminCommands.call(node, "PTTL", KEY);
	}

	private static long millis(long nanos) {
		return nanos / 1_000_000;
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(0, resource);
		return resource;
	}

	private record Failover(boolean bGranted, boolean lostAtGrant, long overlapMillis) {
	}

}
