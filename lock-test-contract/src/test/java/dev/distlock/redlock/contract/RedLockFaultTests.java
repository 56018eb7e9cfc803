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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * RedLock under lost nodes, on real {@code redis-server} processes: a minority crashed or
 * paused ({@code SIGSTOP}) during a hold changes nothing and slows no call; a lost
 * majority fails closed, ends renewed holds, and locking works again when the nodes
 * return, once they have been up for the longest lease (they came back empty); a failed
 * attempt is released on every node.
 */
class RedLockFaultTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, Duration.ofSeconds(10));

	@ParameterizedTest(name = "{0} nodes")
	@ValueSource(ints = { 3, 5 })
	void minorityCrashedDuringAHoldChangesNothingAndNoCallWaitsForADeadNode(int nodeCount) throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(nodeCount)) {
			RedLockClient holder = nodes.client(NODE_TIMEOUT, Duration.ofMillis(1500));
			RedLockClient other = nodes.client(NODE_TIMEOUT, Duration.ofMillis(1500));
			String key = "fault:" + UUID.randomUUID();
			LockHandle held = holder.lock(key, LockOptions.renewing(Duration.ZERO));
			int minority = (nodeCount - 1) / 2;
			for (int i = 0; i < minority; i++) {
				nodes.server(i).crash();
			}
			long slowest = 0;
			for (int i = 0; i < 20; i++) {
				long start = System.nanoTime();
				Optional<LockHandle> taken = other.tryLock(key, NO_WAIT);
				slowest = Math.max(slowest, System.nanoTime() - start);
				assertThat(taken).as("excluded while the holder keeps a majority").isEmpty();
			}
			assertThat(Duration.ofNanos(slowest)).as("slowest attempt").isLessThan(NODE_TIMEOUT);
			// Several renewals (every 500ms) on the nodes that are left.
			Thread.sleep(2000);
			assertThat(held.isLeaseLost()).as("renewed on a majority").isFalse();
			assertThat(other.tryLock(key, NO_WAIT)).isEmpty();
			held.release();
			Optional<LockHandle> next = other.tryLock(key, NO_WAIT);
			assertThat(next).as("free after the release on the majority").isPresent();
			assertThat(next.get().fencingToken()).isGreaterThan(held.fencingToken());
			next.get().release();
		}
	}

	@Test
	void minorityPausedDuringAHoldChangesNothingAndNoCallWaitsLongerThanANodeTimeout() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(5)) {
			RedLockClient holder = nodes.client(NODE_TIMEOUT, Duration.ofMillis(1500));
			RedLockClient other = nodes.client(NODE_TIMEOUT, Duration.ofMillis(1500));
			String key = "fault:" + UUID.randomUUID();
			LockHandle held = holder.lock(key, LockOptions.renewing(Duration.ZERO));
			List<Long> paused = List.of(processId(nodes.server(0)), processId(nodes.server(3)));
			signal("STOP", paused);
			try {
				long slowest = 0;
				for (int i = 0; i < 10; i++) {
					long start = System.nanoTime();
					assertThat(other.tryLock(key, NO_WAIT)).as("excluded while the holder keeps a majority").isEmpty();
					slowest = Math.max(slowest, System.nanoTime() - start);
				}
				assertThat(Duration.ofNanos(slowest)).as("slowest attempt").isLessThan(NODE_TIMEOUT);
				// Several renewals (every 500ms), each decided by the nodes that answer.
				Thread.sleep(2000);
				assertThat(held.isLeaseLost()).as("renewed on a majority").isFalse();
				long start = System.nanoTime();
				held.release();
				Optional<LockHandle> next = other.tryLock(key, NO_WAIT);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as("release and next grant")
					.isLessThan(NODE_TIMEOUT.multipliedBy(2));
				assertThat(next).as("free after the release on the majority").isPresent();
				assertThat(next.get().fencingToken()).isGreaterThan(held.fencingToken());
				next.get().release();
			}
			finally {
				signal("CONT", paused);
			}
		}
	}

	private static long processId(RedisServerProcess server) {
		String info = (String) RedisAdminCommands.call(server, "INFO", "server");
		return info.lines()
			.filter((line) -> line.startsWith("process_id:"))
			.mapToLong((line) -> Long.parseLong(line.substring("process_id:".length()).trim()))
			.findFirst()
			.orElseThrow();
	}

	private static void signal(String signal, List<Long> processIds) throws Exception {
		for (long pid : processIds) {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
			assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
		}
	}

	@Test
	void lostMajorityFailsClosedAndLockingWorksAgainWhenTheNodesReturn() {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			RedLockClient client = nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3));
			String key = "fault:" + UUID.randomUUID();
			nodes.server(0).crash();
			nodes.server(2).crash();
			long start = System.nanoTime();
			assertThatExceptionOfType(LockUnavailableException.class)
				.isThrownBy(() -> client.tryLock(key, new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(10))))
				.withMessageContaining("fewer than a majority (2 of 3) of distlock.redlock.nodes answered")
				.withMessageContaining("distlock.redlock.nodes[0]")
				.withMessageContaining("distlock.redlock.nodes[2]");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("failed without waiting")
				.isLessThan(Duration.ofSeconds(1));
			nodes.restart(nodes.server(0), nodes.server(2));
			// Back empty: they count towards a majority only once they have been up for
			// the longest lease the client gave (10s); until then the lock is refused,
			// not unavailable.
			long back = System.nanoTime();
			assertThat(client.quarantinedNodes()).as("restarted nodes not counted yet").hasSize(2);
			assertThat(client.tryLock(key, NO_WAIT)).as("granted by restarted nodes").isEmpty();
			try (LockHandle handle = client.lock(key,
					new LockOptions(Duration.ofSeconds(20), Duration.ofSeconds(10)))) {
				assertThat(Duration.ofNanos(System.nanoTime() - back)).as("granted only after the restart delay")
					.isGreaterThan(Duration.ofSeconds(5));
				assertThat(handle.fencingToken()).isPositive();
			}
		}
	}

	@Test
	void lostConnectionWithoutARestartCountsTheNodeAgainAsSoonAsItIsRead() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			RedLockClient client = nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3));
			RedLockClient other = nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3));
			String key = "fault:" + UUID.randomUUID();
			// Every client connection to node 0 is dropped; the server keeps running.
			// (Under RESP3 the release-message connections are of type normal too.)
			assertThat((Long) RedisAdminCommands.call(nodes.server(0), "CLIENT", "KILL", "TYPE", "normal"))
				.as("connections of both clients dropped")
				.isGreaterThanOrEqualTo(2L);
			RedisAdminCommands.call(nodes.server(0), "CLIENT", "KILL", "TYPE", "pubsub");
			long dropped = System.nanoTime();
			nodes.awaitConnected();
			RedLockNodes.awaitCounted(client);
			assertThat(Duration.ofNanos(System.nanoTime() - dropped))
				.as("counted again well before the restart delay (3s) would end")
				.isLessThan(Duration.ofSeconds(2));
			// Node 0 counts: with node 1 down, nodes 0 and 2 grant.
			nodes.server(1).crash();
			try (LockHandle held = client.lock(key, NO_WAIT)) {
				assertThat(other.tryLock(key, NO_WAIT)).isEmpty();
			}
			assertThat(client.nodeOutcomes().get(0).quarantined()).isZero();
		}
	}

	@Test
	void renewedHoldLosesItsLeaseWhenTheMajorityIsLost() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			Duration renewalLease = Duration.ofMillis(1200);
			RedLockClient client = nodes.client(NODE_TIMEOUT, renewalLease);
			String key = "fault:" + UUID.randomUUID();
			LockHandle held = client.lock(key, LockOptions.renewing(Duration.ZERO));
			long lost = System.nanoTime();
			nodes.server(1).crash();
			nodes.server(2).crash();
			while (!held.isLeaseLost()) {
				assertThat(Duration.ofNanos(System.nanoTime() - lost)).as("lease lost within one renewal lease")
					.isLessThan(renewalLease.plusMillis(500));
				Thread.sleep(10);
			}
			assertThatExceptionOfType(LockLeaseLostException.class).isThrownBy(held::release)
				.withMessageContaining(key);
		}
	}

	@Test
	void attemptGrantedByAMinorityIsReleasedOnEveryNode() throws Exception {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			RedLockClient client = nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3));
			String key = "fault:" + UUID.randomUUID();
			// Someone else holds the lock on nodes 0 and 1: only node 2 can grant.
			RedisAdminCommands.call(nodes.server(0), "SET", key, "someone-else", "PX", "30000");
			RedisAdminCommands.call(nodes.server(1), "SET", key, "someone-else", "PX", "30000");
			assertThat(client.tryLock(key, NO_WAIT)).isEmpty();
			long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
			while (RedisAdminCommands.call(nodes.server(2), "EXISTS", key).equals(1L)) {
				assertThat(System.nanoTime() - deadline).as("released on node 2").isNegative();
				Thread.sleep(5);
			}
			assertThat(RedisAdminCommands.call(nodes.server(0), "GET", key)).isEqualTo("someone-else");
		}
	}

}
