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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.distlock.test.redis.NativeDeleteModule;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * Runs the benchmarks:
 * {@code ./bench/run [all|uncontended|contended|many-keys|held|smoke]}. Starts its own
 * {@code redis-server} on a free loopback port without persistence, runs every contender
 * against it, and prints Markdown tables on standard output (progress goes to standard
 * error). {@code ./bench/run cluster ...} runs scenarios 1 and 2 on a local Redis Cluster
 * instead ({@link ClusterBench}); {@code ./bench/run reactive [smoke]} measures the
 * reactive locks ({@link ReactiveBench}); {@code ./bench/run kinds [smoke]} the
 * read-write locks and semaphores ({@link KindsBench}); {@code ./bench/run redlock
 * [smoke]} RedLock on 3 and 5 servers against Redisson's ({@link RedLockBench});
 * {@code ./bench/run handover [smoke]} the hand-over of one lock between two JVMs
 * ({@link HandOverBench}); {@code ./bench/run native [uncontended|many-keys] [smoke]}
 * scenarios 1 and 3 on a server with Redis 8.4's {@code DELEX} ({@link #runNative});
 * {@code ./bench/run charts
 * <results.md> [<directory>]} draws the charts of results written earlier
 * ({@link BenchmarkCharts}).
 */
public final class BenchMain {

	static final List<String> SCENARIOS = List.of("uncontended", "contended", "many-keys", "held");

	/** The scenarios of {@code ./bench/run native}. */
	static final List<String> NATIVE_SCENARIOS = List.of("uncontended", "many-keys");

	private BenchMain() {
	}

	/**
	 * Runs the scenarios named by the first argument.
	 * @param args the scenario, {@code all} if none
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("cluster")) {
			ClusterBench.run(List.of(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("reactive")) {
			ReactiveBench.run(List.of(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("charts")) {
			BenchmarkCharts.main(List.of(args).subList(1, args.length).toArray(String[]::new));
			return;
		}
		if (args.length > 0 && args[0].equals("redlock")) {
			RedLockBench.run(List.of(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("handover")) {
			HandOverBench.run(List.of(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("kinds")) {
			KindsBench.run(List.of(args).subList(1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("native")) {
			runNative(List.of(args).subList(1, args.length));
			return;
		}
		String scenario = (args.length > 0) ? args[0] : "all";
		boolean smoke = scenario.equals("smoke") || (args.length > 1 && args[1].equals("smoke"));
		BenchSizes sizes = smoke ? BenchSizes.smoke() : BenchSizes.full();
		List<String> scenarios = switch (scenario) {
			case "all", "smoke" -> SCENARIOS;
			default -> {
				if (!SCENARIOS.contains(scenario)) {
					System.err
						.println("Usage: bench/run [all|smoke|cluster|reactive|kinds|redlock|handover|native|charts|"
								+ String.join("|", SCENARIOS) + "] [smoke]");
					System.exit(2);
				}
				yield List.of(scenario);
			}
		};
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort()) {
			run(redis.url(), sizes, scenarios, HeldLocksScenario.CONTENDERS, true);
		}
		System.exit(0);
	}

	/**
	 * Runs the uncontended and many-keys scenarios (or the one named) on a
	 * {@code redis-server} that has Redis 8.4's native conditional delete,
	 * {@code DELEX key IFEQ value}, as a command of its own ({@link NativeDeleteModule}):
	 * distlock's probe finds it, and its release where nobody waits is that one command.
	 * @param args {@code [uncontended|many-keys] [smoke]}
	 * @throws Exception on failure
	 */
	private static void runNative(List<String> args) throws Exception {
		boolean smoke = args.contains("smoke");
		List<String> scenarios = args.stream().filter((arg) -> !arg.equals("smoke")).toList();
		if (scenarios.isEmpty()) {
			scenarios = NATIVE_SCENARIOS;
		}
		if (!NATIVE_SCENARIOS.containsAll(scenarios)) {
			System.err.println("Usage: bench/run native [" + String.join("|", NATIVE_SCENARIOS) + "] [smoke]");
			System.exit(2);
		}
		try (RedisServerProcess redis = RedisServerProcess.startOnFreePort(NativeDeleteModule.loadArguments())) {
			emit(true, "# On a server with a native conditional delete\n\nThe redis-server of this run loads "
					+ "distlock's test module (lock-test-support, delex-module.c), which gives it Redis 8.4's "
					+ "`DELEX key IFEQ value` as a command of the server itself, so that distlock's release where "
					+ "nobody waits is one command and no script. The other contenders send what they send to any "
					+ "server.\n");
			run(redis.url(), smoke ? BenchSizes.smoke() : BenchSizes.full(), scenarios, List.of(), true);
		}
		System.exit(0);
	}

	/**
	 * Runs scenarios against a server and prints the report.
	 * @param redisUrl the server, which the run may flush
	 * @param sizes how much to measure
	 * @param scenarios which scenarios
	 * @param heldContenders which contenders scenario 4 measures
	 * @param print whether to print the report on standard output
	 * @return the report
	 * @throws Exception on failure
	 */
	static BenchReport run(String redisUrl, BenchSizes sizes, List<String> scenarios, List<String> heldContenders,
			boolean print) throws Exception {
		long start = System.nanoTime();
		BenchReport report = new BenchReport();
		RedisTarget target = RedisTarget.server(redisUrl);
		try (ContenderSet set = new ContenderSet(target, new HashSet<>(ContenderSet.ALL), false)) {
			report.environment = BenchEnvironment.describe(set.redis());
			emit(print, "## Environment\n\n" + report.environment);
			PairCommands.RoundTripCounter roundTrips = PairCommands.roundTripCounter(target, set.redis());
			if (scenarios.contains("uncontended")) {
				report.uncontended = uncontended(set, CommandStats.blockCommands(set.redis()), roundTrips, sizes,
						print);
			}
			if (scenarios.contains("contended")) {
				report.contended = contended(target, set, CommandStats.blockCommands(set.redis()), sizes, print);
			}
			if (scenarios.contains("many-keys")) {
				progress("many-keys");
				report.manyKeys = new ManyKeysScenario(set.contenders(), sizes, CommandStats.blockCommands(set.redis()),
						roundTrips)
					.run();
				emit(print,
						"## 3. Many keys: " + sizes.manyKeysThreads() + " threads over " + sizes.manyKeys()
								+ " keys\n\n" + ManyKeysScenario.table(report.manyKeys) + "\n"
								+ commandsCaption((roundTrips != null)
										? "a block a quarter as long per row, after the measured ones," : null)
								+ ManyKeysScenario.commandsTable(report.manyKeys));
			}
		}
		if (scenarios.contains("held")) {
			// Without the other contenders' clients, whose keep-alive PINGs would be
			// counted.
			try (ContenderSet admin = new ContenderSet(target, Set.of(), false)) {
				progress("held");
				report.held = new HeldLocksScenario(redisUrl, admin.redis(), sizes, heldContenders).run();
				emit(print,
						"## 4. Held locks: " + sizes.heldLocks() + " held, " + sizes.heldSeconds() + " s window, "
								+ sizes.churnCycles() + " churn cycles, " + sizes.afterChurnSeconds() + " s window\n\n"
								+ HeldLocksScenario.table(report.held, sizes.heldLocks()));
			}
		}
		emit(print, "Run took " + Math.round((System.nanoTime() - start) / 1e9) + " s; load average at the end: "
				+ BenchEnvironment.loadAverage());
		return report;
	}

	/**
	 * Runs scenario 1 and prints its tables.
	 * @param set the contenders
	 * @param blockCommands counts the commands Redis executes in each measured block
	 * @param roundTrips counts the commands the clients send, or {@code null} where
	 * {@code MONITOR} cannot watch the Redis (a cluster)
	 * @param sizes the sizes
	 * @param print whether to print the tables
	 * @return the results
	 */
	static List<UncontendedScenario.Result> uncontended(ContenderSet set, BlockCommands blockCommands,
			PairCommands.@Nullable RoundTripCounter roundTrips, BenchSizes sizes, boolean print) {
		progress("uncontended");
		List<UncontendedScenario.Result> results = new UncontendedScenario(set.contenders(), sizes, blockCommands,
				roundTrips)
			.run();
		emit(print, "## 1. Uncontended: one thread, acquire + release\n\n" + UncontendedScenario.table(results) + "\n"
				+ commandsCaption((roundTrips != null)
						? UncontendedScenario.MONITORED_PAIRS + " more pairs per row, after the measured ones," : null)
				+ UncontendedScenario.commandsTable(results));
		return results;
	}

	/**
	 * The text above a table of {@link PairCommands}.
	 * @param monitoredPass what ran under {@code MONITOR}, or {@code null} if nothing did
	 * @return the text, ending in a blank line
	 */
	static String commandsCaption(@Nullable String monitoredPass) {
		String roundTrips = (monitoredPass != null) ? "round trips: the commands the client sent, counted with MONITOR "
				+ "over " + monitoredPass + " not timed (commandstats counts a command a script runs as it counts "
				+ "one a client sends, and so does total_commands_processed); in scripts: the commands the scripts "
				+ "ran, in parentheses after the script command; "
				: "round trips: not counted (MONITOR watches one server, not a cluster); ";
		return "Redis commands per pair (INFO commandstats): calls are every command the server counted during the "
				+ "measured pairs, commands run inside Lua scripts and PUBLISH included, divided by the pairs "
				+ "(summed over the masters on a cluster); " + roundTrips + "figures under 0.005 per pair left out; "
				+ "the counters are the server's, so other clients' background commands of the same time (such as "
				+ "Redisson's keep-alive PINGs) count too.\n\n";
	}

	static List<HandOverStats> contended(RedisTarget target, ContenderSet set, BlockCommands commands, BenchSizes sizes,
			boolean print) throws IOException {
		progress("contended");
		Map<String, String> names = new LinkedHashMap<>();
		for (String id : set.created()) {
			if (!id.equals(ContenderSet.FLOOR)) {
				names.put(id, set.get(id).name());
			}
		}
		Path workDir = Files.createTempDirectory("distlock-bench");
		PingFloor floor = (PingFloor) set.get(ContenderSet.FLOOR);
		ContendedScenario contended = new ContendedScenario(target, set.redis(), commands, names, sizes, workDir,
				floor);
		List<HandOverStats> results = contended.run();
		Files.deleteIfExists(workDir);
		double floorNanos = contended.floorLatency().getValueAtPercentile(50);
		emit(print, "## 2. Contended: one key, " + sizes.workers() + " JVMs × " + sizes.threadsPerWorker()
				+ " threads, " + sizes.criticalSectionMicros() / 1000.0 + " ms critical section\n\n"
				+ ContendedScenario.table(results, floorNanos, sizes.criticalSectionMicros() * 1_000L)
				+ "\nFloor for the gap ratio: " + floor.pair() + " p50 measured between the blocks, "
				+ MarkdownTable.micros(floorNanos) + " µs\n\n"
				+ "Redis commands per hold (INFO commandstats): every command the server counted during the "
				+ "measured blocks, commands run inside Lua scripts, PUBLISH and the critical section's GET and "
				+ "SET included, divided by the holds (summed over the masters on a cluster); round trips not "
				+ "counted (MONITOR would slow the hand-overs it measures), so nothing is split into sent and "
				+ "run in scripts; figures under 0.005 per hold left out.\n\n"
				+ ContendedScenario.commandsTable(results));
		return results;
	}

	private static void progress(String scenario) {
		System.err.println("Running " + scenario + " ...");
	}

	static void emit(boolean print, String text) {
		if (print) {
			System.out.println(text);
			System.out.flush();
		}
	}

}
