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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisAdminCommands;
import dev.distlock.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RedLock's fencing tokens never go backwards: over many grants with nodes crashed and
 * restarted empty between them, and in the case that only the second phase covers (the
 * node with the greatest counter is not in the next majority), with a control that runs
 * the first phase alone, as RedLock is usually built, and sees the token go backwards.
 * The clients count a restarted node at once ({@code appendfsyncAlways}): what is shown
 * is what the tokens do on their own; the delayed-restart rule, which the clients enforce
 * by default, only makes a restarted node count later (see
 * {@code RedLockRestartWhileHeldTests} in {@code lock-faults}).
 */
class RedLockFencingTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	private static final LockOptions ONE_ATTEMPT = new LockOptions(Duration.ofSeconds(5), Duration.ofSeconds(10));

	private static final UnaryOperator<RedLockClient.Builder> COUNT_RESTARTED_AT_ONCE = (builder) -> builder
		.appendfsyncAlways(true);

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	@ParameterizedTest(name = "{0} nodes")
	@ValueSource(ints = { 3, 5 })
	void tokensStrictlyIncreaseOverManyGrantsWithNodesCrashedAndRestartedEmptyBetweenThem(int nodeCount) {
		try (RedLockNodes nodes = new RedLockNodes(nodeCount)) {
			List<RedLockClient> clients = List.of(
					nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3), COUNT_RESTARTED_AT_ONCE),
					nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3), COUNT_RESTARTED_AT_ONCE));
			String key = "fence:" + UUID.randomUUID();
			long previous = 0;
			int restarts = 0;
			for (int grant = 0; grant < 600; grant++) {
				if (grant % 20 == 19) {
					RedisServerProcess node = nodes.server(restarts++ % nodeCount);
					node.crash();
					nodes.restart(node);
					assertThat(RedisAdminCommands.call(node, "DBSIZE")).as("restarted empty").isEqualTo(0L);
				}
				try (LockHandle handle = clients.get(grant % 2).lock(key, ONE_ATTEMPT)) {
					assertThat(handle.fencingToken()).as("token of grant %d", grant).isGreaterThan(previous);
					previous = handle.fencingToken();
				}
			}
			assertThat(restarts).isEqualTo(30);
		}
	}

	@Test
	void secondPhaseKeepsTheTokenWhenTheNodeWithTheGreatestCounterIsNotInTheNextMajority() {
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			RedLockClient client = nodes.client(NODE_TIMEOUT, Duration.ofSeconds(3), COUNT_RESTARTED_AT_ONCE);
			String key = "fence:" + UUID.randomUUID();
			RedisServerProcess a = nodes.server(0);
			RedisServerProcess c = nodes.server(2);
			// Node A's counter is ahead of the others' (its clock ran ahead, or it
			// counted
			// more grants).
			RedisAdminCommands.call(a, "SET", KEYSPACE.fenceKey(key), "8000000000000000");
			c.crash();
			long first;
			try (LockHandle handle = client.lock(key, ONE_ATTEMPT)) {
				first = handle.fencingToken();
			}
			assertThat(first).isGreaterThan(8000000000000000L);
			nodes.restart(c);
			a.crash();
			try (LockHandle handle = client.lock(key, ONE_ATTEMPT)) {
				assertThat(handle.fencingToken()).as("granted by B and C, which never saw A's counter")
					.isGreaterThan(first);
			}
		}
	}

	@Test
	void controlWithoutPhaseTwoTheGreatestGrantingCandidateGoesBackwards() throws IOException {
		String script;
		try (InputStream in = RedLockClient.class.getResourceAsStream("acquire.lua")) {
			assertThat(in).isNotNull();
			script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		try (RedLockNodes nodes = new RedLockNodes(3)) {
			String key = "fence:" + UUID.randomUUID();
			RedisServerProcess a = nodes.server(0);
			RedisServerProcess b = nodes.server(1);
			RedisServerProcess c = nodes.server(2);
			RedisAdminCommands.call(a, "SET", KEYSPACE.fenceKey(key), "8000000000000000");
			c.crash();
			long first = Math.max(phaseOne(a, script, key), phaseOne(b, script, key));
			RedisAdminCommands.call(a, "DEL", key);
			RedisAdminCommands.call(b, "DEL", key);
			c.start();
			a.crash();
			long second = Math.max(phaseOne(b, script, key), phaseOne(c, script, key));
			assertThat(first).isGreaterThan(8000000000000000L);
			assertThat(second).as("the next grant's token, without phase 2").isLessThan(first);
		}
	}

	/** Phase 1 alone on one node: grants the lock and returns the node's candidate. */
	private static long phaseOne(RedisServerProcess node, String script, String key) {
		List<?> reply = (List<?>) RedisAdminCommands.call(node, "EVAL", script, "2", key, KEYSPACE.fenceKey(key),
				UUID.randomUUID().toString(), "10000");
		assertThat(reply).as("granted by %s", node).isNotNull().first().isEqualTo(1L);
		return (Long) reply.get(1);
	}

}
