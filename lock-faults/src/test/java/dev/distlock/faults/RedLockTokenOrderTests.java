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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redlock.RedLockClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 7: fencing tokens strictly increase over thousands of grants while nodes
 * are killed and restarted empty. Two clients (two threads, a {@link RedLockClient} each)
 * take and release one key over and over, each trying again at once (after up to 1 ms)
 * while the other holds it; each hands its token, while it holds the lock, to a fenced
 * resource that keeps them in the order they came. A background thread kills the nodes in
 * turn ({@code SIGKILL}, no persistence) and restarts each empty after it stayed down a
 * random 150–250 ms, and kills the next only once every client is connected to every node
 * again: a majority is up all the time.
 * <p>
 * All nodes run on one host and share its clock, so tokens that follow the clock would
 * increase whatever the protocol does. Node 0's clock is taken to run 50 ms ahead of the
 * others' instead: every 2 ms its counter is raised to its clock plus 50 ms, which is
 * what a clock that far ahead gives phase 1. A node stays down longer than that skew, the
 * delayed restart as it bears on tokens (the nodes' clocks agree to within the time a
 * node stayed down); the restart is not delayed by a lease, so this is about token order,
 * not exclusion. The controls run the same faults with the fencing as RedLock is usually
 * built: the greatest token of the nodes that granted, phase 1 alone (the mechanism of
 * {@code RedLockFencingTests} in lock-test-contract: {@code acquire.lua} on every node,
 * no phase 2), and a plain {@code INCR} on one node under the lock. Both hand out tokens
 * that go backwards.
 * <p>
 * Two threads that lock without pause keep the 2 cores of the machine busy: the class
 * runs alone, not beside the other scenarios, whose node timeouts of 50 ms it would
 * otherwise make fire.
 */
@Isolated
class RedLockTokenOrderTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

	private static final Duration LEASE = Duration.ofSeconds(2);

	/**
	 * No wait: a holder that finds the key taken tries again at once (after up to 1 ms).
	 */
	private static final LockOptions NO_WAIT = new LockOptions(Duration.ZERO, LEASE);

	private static final int GRANTS = 2000;

	/**
	 * Grants of a control at the least: a control ends once every node was killed and
	 * restarted, node 0 with the fast clock included, which is when its tokens go back.
	 */
	private static final int CONTROL_GRANTS = 200;

	/** How far node 0's clock runs ahead of the others', in microseconds. */
	private static final long SKEW_MICROS = 50_000;

	/** The shortest time a killed node stays down: longer than the skew. */
	private static final long MIN_DOWN_MS = 150;

	private static final LockKeyspace KEYSPACE = new LockKeyspace("", false, 1024);

	/**
	 * Raises a counter to the node's clock plus a skew in microseconds, never lowers it.
	 */
	private static final String SKEW_SCRIPT = """
			local time = redis.call('time')
			local skewed = tonumber(time[1]) * 1000000 + tonumber(time[2]) + tonumber(ARGV[1])
			if skewed > tonumber(redis.call('get', KEYS[1]) or '0') then
				redis.call('set', KEYS[1], string.format('%d', skewed))
			end
			return 1
			""";

	@ParameterizedTest(name = "{0} nodes")
	@ValueSource(ints = { 3, 5 })
	void tokensStrictlyIncreaseOverThousandsOfGrantsWhileNodesAreKilledAndRestartedEmpty(int count) {
		try (RedLockFaultNodes nodes = RedLockFaultNodes.start(count)) {
			List<RedLockClient> clients = List.of(nodes.client(NODE_TIMEOUT), nodes.client(NODE_TIMEOUT));
			String key = "redlock:order:" + UUID.randomUUID();
			Run run = run(nodes, key, GRANTS,
					(client) -> clients.get(client)
						.tryLock(key, NO_WAIT)
						.map((handle) -> new Grant(handle.fencingToken(), handle::release))
						.orElse(null));
			Figures.record("redlock tokens over " + count + " nodes killed and restarted empty", "%s", run);
			assertThat(run.grants()).as("grants").isGreaterThanOrEqualTo(GRANTS);
			assertThat(run.restarts()).as("nodes killed and restarted").isGreaterThanOrEqualTo(count);
			assertThat(run.grantsPerClient()).as("grants of each client").allMatch((grants) -> grants > 0);
			assertThat(run.overlaps()).as("grants while another was held").isZero();
			assertThat(run.backwards()).as("tokens not above every earlier one").isZero();
		}
	}

	@Test
	void controlWithoutPhaseTwoTheTokensGoBackwards() {
		try (RedLockFaultNodes nodes = RedLockFaultNodes.start(3)) {
			String key = "redlock:order:" + UUID.randomUUID();
			List<PhaseOneOnly> locks = List.of(new PhaseOneOnly(nodes, KEYSPACE.lockKey(key)),
					new PhaseOneOnly(nodes, KEYSPACE.lockKey(key)));
			Run run;
			try {
				run = run(nodes, key, CONTROL_GRANTS, (client) -> locks.get(client).lock());
			}
			finally {
				locks.forEach(PhaseOneOnly::close);
			}
			Figures.record("redlock tokens over 3 nodes killed and restarted empty (control: phase 1 alone)", "%s",
					run);
			assertThat(run.restarts()).as("nodes killed and restarted").isGreaterThanOrEqualTo(3);
			assertThat(run.backwards()).as("tokens not above every earlier one").isPositive();
		}
	}

	@Test
	void controlAPlainIncrOnOneNodeGoesBackwards() {
		try (RedLockFaultNodes nodes = RedLockFaultNodes.start(3)) {
			List<RedLockClient> clients = List.of(nodes.client(NODE_TIMEOUT), nodes.client(NODE_TIMEOUT));
			String key = "redlock:order:" + UUID.randomUUID();
			int counterPort = nodes.node(1).port();
			Run run = run(nodes, key, CONTROL_GRANTS, (client) -> {
				LockHandle handle = clients.get(client).tryLock(key, NO_WAIT).orElse(null);
				if (handle == null) {
					return null;
				}
				try {
					Long token = Resp.number(counterPort, "INCR", "plain-counter:" + key);
					return new Grant((token != null) ? token : 0, handle::release);
				}
				catch (RuntimeException ex) {
					// Node 1 is down: this hold gets no token.
					handle.release();
					return null;
				}
			});
			Figures.record("redlock tokens over 3 nodes killed and restarted empty (control: INCR on node 1)", "%s",
					run);
			assertThat(run.restarts()).as("nodes killed and restarted").isGreaterThanOrEqualTo(3);
			assertThat(run.backwards()).as("tokens not above every earlier one").isPositive();
		}
	}

	/**
	 * Two threads take grants until there are as many as asked and every node was killed
	 * and restarted once after the first grant, while node 0's clock runs ahead and the
	 * nodes are killed in turn.
	 */
	private static Run run(RedLockFaultNodes nodes, String key, int grants, Locker locker) {
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger restarts = new AtomicInteger();
		AtomicInteger holding = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		LongAdder failures = new LongAdder();
		List<Long> tokens = new ArrayList<>();
		int[] perClient = new int[2];
		Thread skew = new Thread(() -> skewNodeZero(nodes, running, key), "skew");
		AtomicReference<RuntimeException> killerFailure = new AtomicReference<>();
		Thread killer = new Thread(() -> {
			// Every node is killed after tokens were handed out.
			while (running.get() && tokenCount(tokens) == 0) {
				Pause.millis(1);
			}
			try {
				killInTurn(nodes, running, restarts);
			}
			catch (RuntimeException ex) {
				killerFailure.set(ex);
				running.set(false);
			}
		}, "killer");
		List<Thread> holders = new ArrayList<>();
		for (int client = 0; client < 2; client++) {
			int index = client;
			holders.add(new Thread(() -> {
				while (running.get()) {
					Grant grant;
					try {
						grant = locker.lock(index);
					}
					catch (RuntimeException ex) {
						// A majority not reachable for a moment, or no grant within the
						// wait.
						failures.increment();
						Pause.millis(5);
						continue;
					}
					if (grant == null) {
						// The other client holds the key.
						LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000));
						continue;
					}
					if (holding.incrementAndGet() > 1) {
						overlaps.incrementAndGet();
					}
					synchronized (tokens) {
						tokens.add(grant.token());
						perClient[index]++;
						if (tokens.size() >= grants && restarts.get() >= nodes.size()) {
							running.set(false);
						}
					}
					holding.decrementAndGet();
					try {
						grant.release().run();
					}
					catch (RuntimeException ex) {
						failures.increment();
					}
				}
			}, "holder-" + client));
		}
		long start = System.nanoTime();
		skew.start();
		killer.start();
		holders.forEach(Thread::start);
		long deadline = start + Duration.ofSeconds(60).toNanos();
		for (Thread thread : holders) {
			join(thread, deadline);
		}
		running.set(false);
		join(killer, deadline + Duration.ofSeconds(10).toNanos());
		join(skew, deadline + Duration.ofSeconds(10).toNanos());
		long tookMs = (System.nanoTime() - start) / 1_000_000;
		if (killerFailure.get() != null) {
			throw new IllegalStateException("The faults stopped", killerFailure.get());
		}
		synchronized (tokens) {
			long[] inOrder = tokens.stream().mapToLong(Long::longValue).toArray();
			return new Run(tokens.size(), List.of(perClient[0], perClient[1]), restarts.get(), overlaps.get(),
					TokenOrder.notGreaterThanEarlier(inOrder), failures.intValue(), tookMs);
		}
	}

	private static int tokenCount(List<Long> tokens) {
		synchronized (tokens) {
			return tokens.size();
		}
	}

	private static void join(Thread thread, long deadline) {
		try {
			thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (thread.isAlive()) {
			thread.interrupt();
			throw new IllegalStateException(thread.getName() + " still runs after 60 s");
		}
	}

	/**
	 * Raises node 0's counter for the key (as a client names it) to its clock plus the
	 * skew, every 2 ms.
	 */
	private static void skewNodeZero(RedLockFaultNodes nodes, AtomicBoolean running, String key) {
		String fenceKey = KEYSPACE.fenceKey(KEYSPACE.lockKey(key));
		try (NodeConnection nodeZero = new NodeConnection(nodes.node(0))) {
			while (running.get()) {
				// Nothing while node 0 is down.
				nodeZero.call("EVAL", SKEW_SCRIPT, "1", fenceKey, Long.toString(SKEW_MICROS));
				Pause.millis(2);
			}
		}
	}

	/**
	 * Kills the nodes in turn, each restarted empty after 150–250 ms, the next killed
	 * only once every client is connected to every node again.
	 */
	private static void killInTurn(RedLockFaultNodes nodes, AtomicBoolean running, AtomicInteger restarts) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int next = random.nextInt(nodes.size());
		while (running.get()) {
			RedisNode node = nodes.node(next);
			next = (next + 1) % nodes.size();
			node.kill();
			Pause.millis(MIN_DOWN_MS + random.nextLong(101));
			node.restart();
			nodes.awaitConnected();
			restarts.incrementAndGet();
			Pause.millis(50 + random.nextLong(51));
		}
	}

	/** Takes a grant for one of the two clients. */
	@FunctionalInterface
	private interface Locker {

		/** The grant, or null if there was none this time. */
		@Nullable Grant lock(int client);

	}

	/** A grant's token, and how to release it. */
	private record Grant(long token, Runnable release) {

	}

	/**
	 * What a run saw.
	 *
	 * @param grants how many grants
	 * @param grantsPerClient of each client
	 * @param restarts how many nodes were killed and restarted empty
	 * @param overlaps grants while another was held
	 * @param backwards tokens not above every earlier one
	 * @param failures calls that failed (no majority for a moment, a release that failed)
	 * @param tookMs how long the run took
	 */
	private record Run(int grants, List<Integer> grantsPerClient, int restarts, int overlaps, int backwards,
			int failures, long tookMs) {

		@Override
		public String toString() {
			return String.format(
					"%d grants (%s per client) in %d ms, %d nodes killed and restarted empty; %d overlapping, "
							+ "%d tokens not above every earlier one; %d failed calls",
					this.grants, this.grantsPerClient, this.tookMs, this.restarts, this.overlaps, this.backwards,
					this.failures);
		}

	}

	/**
	 * RedLock with phase 1 alone, as it is usually built: {@code acquire.lua} on every
	 * node in turn, granted with a majority, the greatest token of the nodes that
	 * granted; released on every node. One connection per node, opened again after a
	 * failure.
	 */
	private static final class PhaseOneOnly implements AutoCloseable {

		private static final String ACQUIRE = script("acquire.lua");

		private static final String RELEASE = script("release.lua");

		private final RedLockFaultNodes nodes;

		private final String lockKey;

		private final String fenceKey;

		private final List<NodeConnection> connections = new ArrayList<>();

		PhaseOneOnly(RedLockFaultNodes nodes, String lockKey) {
			this.nodes = nodes;
			this.lockKey = lockKey;
			this.fenceKey = KEYSPACE.fenceKey(lockKey);
			for (int i = 0; i < nodes.size(); i++) {
				this.connections.add(new NodeConnection(nodes.node(i)));
			}
		}

		@Nullable Grant lock() {
			String owner = UUID.randomUUID().toString();
			int granted = 0;
			long token = 0;
			for (int i = 0; i < this.nodes.size(); i++) {
				Object reply = this.connections.get(i)
					.call("EVAL", ACQUIRE, "2", this.lockKey, this.fenceKey, owner, Long.toString(LEASE.toMillis()));
				if (reply instanceof List<?> list && Long.valueOf(1).equals(list.get(0))) {
					granted++;
					token = Math.max(token, (Long) list.get(1));
				}
			}
			Runnable release = () -> {
				for (int i = 0; i < this.nodes.size(); i++) {
					this.connections.get(i).call("EVAL", RELEASE, "1", this.lockKey, owner);
				}
			};
			if (granted < this.nodes.majority()) {
				release.run();
				return null;
			}
			return new Grant(token, release);
		}

		private static String script(String name) {
			try (InputStream in = RedLockClient.class.getResourceAsStream(name)) {
				if (in == null) {
					throw new IllegalStateException("No RedLock script " + name);
				}
				return new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public void close() {
			this.connections.forEach(NodeConnection::close);
		}

	}

}
