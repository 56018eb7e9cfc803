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

package dev.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.redisson.Redisson;
import org.redisson.RedissonMultiLock;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * {@code ./bench/run redlock [smoke]}: locks over several independent masters. Starts 5
 * {@code redis-server} processes on free loopback ports and measures, on the first 3 and
 * on all 5 of them, distlock's {@link RedLockClient} ({@code distlock.store=redlock})
 * against Redisson's {@link RedissonRedLock} (deprecated by Redisson, still shipped) and
 * {@link RedissonMultiLock} (every node must grant), with one Redisson client per node;
 * and, for scale, distlock's Redis client and Redisson's {@code RLock} on the first
 * server alone, in the same run. Two scenarios:
 * <ol>
 * <li>uncontended: one thread, acquire + release with an empty critical section on a new
 * key each time, in blocks that rotate the contenders;</li>
 * <li>contended: one key per contender, threads of this JVM each taking it in turn for a
 * 1 ms critical section (a non-atomic read-modify-write of a counter) for a fixed time;
 * each row reports overlapping holds and lost increments, which must be 0.</li>
 * </ol>
 * Every contender waits as long as it takes and renews its lease while held (distlock's
 * auto-renewed lease, Redisson's watchdog).
 */
final class RedLockBench {

	/**
	 * How long each command to one node may take: the timeout counts only when a node
	 * exceeds it, and the default of 50 ms is exceeded by every node at once when this
	 * JVM stalls that long, as it can on a loaded machine (the build runs the smoke
	 * scenarios beside other work), which fails the acquisition closed.
	 */
	private static final Duration NODE_TIMEOUT = Duration.ofMillis(250);

	/** distlock's RedLock client. */
	static final String DISTLOCK_REDLOCK = "distlock RedLock";

	/** distlock's Redis client, on one server. */
	static final String DISTLOCK_SINGLE = "distlock client (one server)";

	/** Redisson's RedLock. */
	static final String REDISSON_REDLOCK = "Redisson RedissonRedLock";

	/** Redisson's multi-lock. */
	static final String REDISSON_MULTILOCK = "Redisson RedissonMultiLock";

	/** Redisson's lock, on one server. */
	static final String REDISSON_SINGLE = "Redisson RLock (one server)";

	private static final int SERVERS = 5;

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final long CRITICAL_SECTION_NANOS = 1_000_000;

	/**
	 * How much to measure.
	 *
	 * @param warmupPairs uncontended pairs per contender before measuring
	 * @param measuredPairs uncontended pairs measured per contender
	 * @param rounds blocks per contender, rotated among the contenders
	 * @param threads contended threads per contender
	 * @param contendedSeconds how long each contender runs contended
	 */
	record Sizes(int warmupPairs, int measuredPairs, int rounds, int threads, double contendedSeconds) {

		static Sizes smoke() {
			return new Sizes(20, 40, 2, 2, 0.5);
		}

		static Sizes full() {
			return new Sizes(1_000, 4_000, 4, 8, 10);
		}

	}

	/**
	 * One contender on some number of nodes.
	 *
	 * @param name the name shown in the tables
	 * @param nodes how many servers it locks on
	 * @param contender how it runs a critical section under the lock
	 */
	record Entry(String name, int nodes, Contender contender) {
	}

	/**
	 * Uncontended figures of one contender.
	 *
	 * @param name the contender
	 * @param nodes how many servers
	 * @param latency nanoseconds per acquire + release
	 * @param pairsPerSecond pairs divided by the time the blocks took
	 */
	record Uncontended(String name, int nodes, Histogram latency, double pairsPerSecond) {
	}

	/**
	 * Contended figures of one contender.
	 *
	 * @param name the contender
	 * @param nodes how many servers
	 * @param threads how many threads took the key in turn
	 * @param holds holds completed
	 * @param holdsPerSecond holds divided by the time
	 * @param acquire nanoseconds from asking for the lock until holding it
	 * @param overlaps holds that began while another was under way, must be 0
	 * @param lostIncrements holds minus the counter, must be 0
	 */
	record Contended(String name, int nodes, int threads, long holds, double holdsPerSecond, Histogram acquire,
			long overlaps, long lostIncrements) {
	}

	/**
	 * A run's results.
	 *
	 * @param uncontended scenario 1
	 * @param contended scenario 2
	 */
	record Report(List<Uncontended> uncontended, List<Contended> contended) {
	}

	private RedLockBench() {
	}

	static void run(List<String> args) throws Exception {
		boolean smoke = args.contains("smoke");
		List<RedisServerProcess> servers = new ArrayList<>();
		try {
			for (int i = 0; i < SERVERS; i++) {
				servers.add(RedisServerProcess.startOnFreePort());
			}
			run(servers.stream().map(RedisServerProcess::url).toList(), smoke ? Sizes.smoke() : Sizes.full(), true);
		}
		finally {
			servers.forEach(RedisServerProcess::close);
		}
		System.exit(0);
	}

	/**
	 * Runs both scenarios on the servers.
	 * @param urls the URLs of 5 independent servers, which the run may write to
	 * @param sizes how much to measure
	 * @param print whether to print the report on standard output
	 * @return the results
	 * @throws Exception on failure
	 */
	static Report run(List<String> urls, Sizes sizes, boolean print) throws Exception {
		long start = System.nanoTime();
		List<RedissonClient> redissons = new ArrayList<>();
		List<RedLockClient> redLocks = new ArrayList<>();
		ConfigurableApplicationContext single = DistlockFactory.builder(RedisTarget.server(urls.get(0))).run();
		try {
			BenchMain.emit(print, "## Environment\n\n" + BenchEnvironment.describe(SERVERS
					+ " redis-server processes on loopback, no persistence (the single-server rows use the first)"));
			for (String url : urls) {
				Config config = new Config();
				config.useSingleServer().setAddress(url);
				redissons.add(Redisson.create(config));
			}
			List<Entry> entries = new ArrayList<>();
			entries.add(new Entry(DISTLOCK_SINGLE, 1, DistlockFactory.client(single, DISTLOCK_SINGLE)));
			entries.add(new Entry(REDISSON_SINGLE, 1, javaLock(REDISSON_SINGLE, redissons.get(0)::getLock)));
			for (int nodes : List.of(3, 5)) {
				RedLockClient client = RedLockClient.builder(urls.subList(0, nodes))
					.defaultOptions(LockOptions.renewing(WAIT))
					.nodeTimeout(NODE_TIMEOUT)
					.build();
				redLocks.add(client);
				client.checkNodes(Duration.ofSeconds(5));
				awaitCounted(client);
				entries.add(new Entry(DISTLOCK_REDLOCK, nodes, redLockClient(client)));
				List<RedissonClient> on = redissons.subList(0, nodes);
				entries.add(new Entry(REDISSON_REDLOCK, nodes, javaLock(REDISSON_REDLOCK, (key) -> redLock(on, key))));
				entries.add(new Entry(REDISSON_MULTILOCK, nodes,
						javaLock(REDISSON_MULTILOCK, (key) -> new RedissonMultiLock(locks(on, key)))));
			}
			System.err.println("Running redlock uncontended ...");
			List<Uncontended> uncontended = uncontended(entries, sizes);
			BenchMain.emit(print, "## RedLock 1. Uncontended: one thread, acquire + release, a new key each time\n\n"
					+ uncontendedTable(uncontended));
			System.err.println("Running redlock contended ...");
			List<Contended> contended = new ArrayList<>();
			for (Entry entry : entries) {
				contended.add(contended(entry, sizes));
			}
			BenchMain.emit(print,
					"## RedLock 2. Contended: one key, " + sizes.threads()
							+ " threads of one JVM, 1 ms critical section, " + sizes.contendedSeconds()
							+ " s per contender\n\n" + contendedTable(contended));
			BenchMain.emit(print, "Run took " + Math.round((System.nanoTime() - start) / 1e9)
					+ " s; load average at the end: " + BenchEnvironment.loadAverage());
			return new Report(uncontended, contended);
		}
		finally {
			redLocks.forEach(RedLockClient::close);
			redissons.forEach(RedissonClient::shutdown);
			single.close();
		}
	}

	/**
	 * Waits until the client counts the fresh nodes' grants: by default a node counts
	 * only once it has been up for the longest lease (here the 30 s renewal lease).
	 */
	private static void awaitCounted(RedLockClient client) {
		long start = System.nanoTime();
		if (!client.quarantinedNodes().isEmpty()) {
			System.err.println("Waiting until the RedLock nodes have been up for the longest lease ...");
		}
		while (!client.quarantinedNodes().isEmpty()) {
			if (System.nanoTime() - start > Duration.ofSeconds(120).toNanos()) {
				throw new IllegalStateException("RedLock nodes still quarantined: " + client.quarantinedNodes());
			}
			LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
		}
	}

	private static Contender redLockClient(RedLockClient client) {
		return new Contender() {

			@Override
			public String name() {
				return DISTLOCK_REDLOCK;
			}

			@Override
			public void runLocked(String key, Runnable section) {
				LockHandle handle = client.lock(key);
				try {
					section.run();
				}
				finally {
					handle.release();
				}
			}

		};
	}

	@SuppressWarnings("deprecation")
	private static Lock redLock(List<RedissonClient> clients, String key) {
		return new RedissonRedLock(locks(clients, key));
	}

	private static RLock[] locks(List<RedissonClient> clients, String key) {
		return clients.stream().map((client) -> client.getLock(key)).toArray(RLock[]::new);
	}

	private static Contender javaLock(String name, java.util.function.Function<String, Lock> lockFor) {
		return new JavaLockContender() {

			@Override
			public String name() {
				return name;
			}

			@Override
			Lock lockFor(String key) {
				return lockFor.apply(key);
			}

			@Override
			public String longLease() {
				return "watchdog 30 s, renewed every 10 s";
			}

		};
	}

	private static List<Uncontended> uncontended(List<Entry> entries, Sizes sizes) {
		Map<Entry, Histogram> latencies = new LinkedHashMap<>();
		Map<Entry, Long> elapsed = new LinkedHashMap<>();
		AtomicLong nextKey = new AtomicLong();
		for (Entry entry : entries) {
			latencies.put(entry, new Histogram(3));
			elapsed.put(entry, 0L);
			pairs(entry, sizes.warmupPairs(), new Histogram(3), nextKey);
		}
		int perBlock = sizes.measuredPairs() / sizes.rounds();
		for (int round = 0; round < sizes.rounds(); round++) {
			for (Entry entry : Rotation.forRound(entries, round)) {
				long blockStart = System.nanoTime();
				pairs(entry, perBlock, latencies.get(entry), nextKey);
				elapsed.merge(entry, System.nanoTime() - blockStart, Long::sum);
			}
		}
		List<Uncontended> results = new ArrayList<>();
		for (Entry entry : entries) {
			Histogram latency = latencies.get(entry);
			results.add(new Uncontended(entry.name(), entry.nodes(), latency,
					latency.getTotalCount() * 1e9 / elapsed.get(entry)));
		}
		return results;
	}

	private static void pairs(Entry entry, int pairs, Histogram latency, AtomicLong nextKey) {
		for (int i = 0; i < pairs; i++) {
			String key = "bench:redlock:s1:" + nextKey.incrementAndGet();
			long start = System.nanoTime();
			entry.contender().runLocked(key, () -> {
			});
			latency.recordValue(System.nanoTime() - start);
		}
	}

	private static Contended contended(Entry entry, Sizes sizes) throws InterruptedException {
		String key = "bench:redlock:s2:" + entry.name().replace(' ', '-') + ":" + entry.nodes();
		AtomicInteger inside = new AtomicInteger();
		AtomicLong overlaps = new AtomicLong();
		AtomicLong holds = new AtomicLong();
		AtomicLong counter = new AtomicLong();
		Histogram acquire = new Histogram(3);
		long end = System.nanoTime() + (long) (sizes.contendedSeconds() * 1e9);
		CountDownLatch done = new CountDownLatch(sizes.threads());
		List<Throwable> failures = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < sizes.threads(); t++) {
			Thread thread = new Thread(() -> {
				try {
					while (System.nanoTime() - end < 0) {
						long asked = System.nanoTime();
						entry.contender().runLocked(key, () -> {
							long waited = System.nanoTime() - asked;
							synchronized (acquire) {
								acquire.recordValue(waited);
							}
							if (inside.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							// Read-modify-write, not atomic: only the lock keeps
							// increments.
							long read = counter.get();
							LockSupport.parkNanos(CRITICAL_SECTION_NANOS);
							counter.set(read + 1);
							holds.incrementAndGet();
							inside.decrementAndGet();
						});
					}
				}
				catch (Throwable ex) {
					synchronized (failures) {
						failures.add(ex);
					}
				}
				finally {
					done.countDown();
				}
			}, "redlock-bench-" + t);
			thread.start();
		}
		done.await();
		if (!failures.isEmpty()) {
			throw new IllegalStateException(entry.name() + " on " + entry.nodes() + " nodes failed while contended",
					failures.get(0));
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		long held = holds.get();
		return new Contended(entry.name(), entry.nodes(), sizes.threads(), held, held / seconds, acquire,
				overlaps.get(), held - counter.get());
	}

	static String uncontendedTable(List<Uncontended> results) {
		double scale = results.stream()
			.filter((result) -> result.name().equals(DISTLOCK_SINGLE))
			.findFirst()
			.orElseThrow()
			.latency()
			.getValueAtPercentile(50);
		MarkdownTable table = new MarkdownTable("contender", "nodes", "pairs", "p50 µs", "p99 µs", "pairs/s",
				"p50 / distlock one server");
		for (Uncontended result : results) {
			double p50 = result.latency().getValueAtPercentile(50);
			table.row(result.name(), result.nodes(), result.latency().getTotalCount(), MarkdownTable.micros(p50),
					MarkdownTable.micros(result.latency().getValueAtPercentile(99)),
					MarkdownTable.number(result.pairsPerSecond(), 0), MarkdownTable.number(p50 / scale, 2));
		}
		return table.render();
	}

	static String contendedTable(List<Contended> results) {
		MarkdownTable table = new MarkdownTable("contender", "nodes", "threads", "holds", "holds/s", "acquire p50 µs",
				"acquire p99 µs", "overlaps", "lost increments");
		for (Contended result : results) {
			table.row(result.name(), result.nodes(), result.threads(), result.holds(),
					MarkdownTable.number(result.holdsPerSecond(), 0),
					MarkdownTable.micros(result.acquire().getValueAtPercentile(50)),
					MarkdownTable.micros(result.acquire().getValueAtPercentile(99)), result.overlaps(),
					result.lostIncrements());
		}
		return table.render();
	}

}
