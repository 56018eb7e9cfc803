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

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.benchmarks.ExplicitContender.Held;

/**
 * The JVM of one contender in scenario 4, so that its threads and heap are its own:
 * acquires many locks with the contender's long-held lease, holds them while counting
 * what Redis executes, churns (releases and re-acquires all) and counts again, releases,
 * and counts the keys left. Replies with one line of {@code name=value} fields separated
 * by tabs.
 */
public final class HeldLocksProcess {

	private HeldLocksProcess() {
	}

	/**
	 * Runs one contender.
	 * @param args Redis URL, contender id, locks, first window seconds, churn cycles,
	 * second window seconds
	 * @throws Exception on failure, after replying with an error
	 */
	public static void main(String[] args) throws Exception {
		try {
			ForkedJvm.reply(run(args[0], args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
					Integer.parseInt(args[4]), Integer.parseInt(args[5])));
		}
		catch (Exception ex) {
			ForkedJvm.reply("ERROR " + ex);
			throw ex;
		}
		System.exit(0);
	}

	private static String run(String redisUrl, String id, int locks, int holdSeconds, int churnCycles,
			int afterChurnSeconds) throws Exception {
		Map<String, String> result = new LinkedHashMap<>();
		URI uri = URI.create(redisUrl);
		try (ContenderSet set = new ContenderSet(RedisTarget.server(redisUrl), Set.of(id), true);
				RedisMonitor monitor = new RedisMonitor(uri.getHost(), uri.getPort())) {
			StringRedisTemplate redis = set.redis();
			ExplicitContender contender = (ExplicitContender) set.get(id);
			result.put("name", contender.name());
			result.put("lease", contender.longLease());
			releaseAll(acquireAll(contender, "bench:s4:warmup:", 100));
			result.put("threadsIdle", Integer.toString(threads()));
			result.put("heapIdleMb", heapAfterGcMb());
			long start = System.nanoTime();
			List<Held> held = acquireAll(contender, "bench:s4:", locks);
			result.put("acquireSeconds", seconds(System.nanoTime() - start));
			result.put("keysHeld", Long.toString(dbSize(redis)));
			result.put("threadsHeld", Integer.toString(threads()));
			result.put("heapHeldMb", heapAfterGcMb());
			window(redis, monitor, holdSeconds, "first", result);
			start = System.nanoTime();
			for (int cycle = 0; cycle < churnCycles; cycle++) {
				releaseAll(held);
				held = acquireAll(contender, "bench:s4:", locks);
			}
			result.put("churnSeconds", seconds(System.nanoTime() - start));
			window(redis, monitor, afterChurnSeconds, "afterChurn", result);
			result.put("threadsAfterChurn", Integer.toString(threads()));
			releaseAll(held);
			Thread.sleep(500);
			result.put("keysLeft", Long.toString(dbSize(redis)));
		}
		return result.entrySet().stream().map((e) -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\t"));
	}

	private static void window(StringRedisTemplate redis, RedisMonitor monitor, int seconds, String name,
			Map<String, String> result) throws InterruptedException {
		monitor.awaitCaughtUp(redis);
		Map<String, Long> statsBefore = CommandStats.calls(redis);
		Map<String, Long> monitorBefore = monitor.snapshot();
		long start = System.nanoTime();
		Thread.sleep(seconds * 1000L);
		Map<String, Long> statsDelta = CommandStats.delta(statsBefore, CommandStats.calls(redis));
		monitor.awaitCaughtUp(redis);
		Map<String, Long> monitorDelta = CommandStats.delta(monitorBefore, monitor.snapshot());
		double elapsed = (System.nanoTime() - start) / 1e9;
		result.put(name + "Seconds", String.format(Locale.ROOT, "%.1f", elapsed));
		result.put(name + "Commandstats", encode(statsDelta));
		result.put(name + "Monitor", encode(monitorDelta));
	}

	private static String encode(Map<String, Long> counts) {
		return counts.entrySet().stream().map((e) -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
	}

	private static List<Held> acquireAll(ExplicitContender contender, String prefix, int locks) {
		List<Held> held = new ArrayList<>(locks);
		for (int i = 0; i < locks; i++) {
			held.add(contender.acquireLongHeld(prefix + i));
		}
		return held;
	}

	private static void releaseAll(List<Held> held) {
		held.forEach(Held::release);
	}

	private static long dbSize(StringRedisTemplate redis) {
		Long size = redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().dbSize());
		return (size != null) ? size : -1;
	}

	private static int threads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	private static String heapAfterGcMb() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
		}
		long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
		return String.format(Locale.ROOT, "%.1f", used / 1048576.0);
	}

	private static String seconds(long nanos) {
		return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
	}

}
