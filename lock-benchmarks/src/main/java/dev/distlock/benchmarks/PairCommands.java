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

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis commands of one contender's acquire + release pairs in one scenario: every
 * call {@code INFO commandstats} counted while the measured pairs ran (commands run
 * inside Lua scripts included, as commandstats counts them), and, where a server can be
 * watched with {@code MONITOR}, which of them the client sent (one round trip each) and
 * which its scripts ran, counted in a separate pass that is not timed.
 * {@code INFO commandstats} alone cannot tell them apart: it counts a {@code GET} run by
 * a script as it counts a {@code GET} a client sent, and so does
 * {@code total_commands_processed}.
 */
final class PairCommands {

	/** The commands that run a script or function, whose calls each run more commands. */
	static final Set<String> SCRIPT_COMMANDS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

	/** Per-pair figures below this are left out of the breakdown. */
	private static final double SHOWN = 0.005;

	private final Map<String, Long> calls = new TreeMap<>();

	private long pairs;

	private final Map<String, Long> sent = new TreeMap<>();

	private final Map<String, Long> inScripts = new TreeMap<>();

	private long monitoredPairs;

	/**
	 * Adds what commandstats counted over measured pairs.
	 * @param delta calls by command, from {@link CommandStats#delta}
	 * @param pairs how many pairs ran meanwhile
	 */
	void addMeasured(Map<String, Long> delta, long pairs) {
		delta.forEach((name, count) -> this.calls.merge(name, count, Long::sum));
		this.pairs += pairs;
	}

	/**
	 * Adds what {@code MONITOR} saw over pairs of the counting pass.
	 * @param sent commands the clients sent, by name
	 * @param inScripts commands run inside scripts, by name
	 * @param pairs how many pairs ran meanwhile
	 */
	void addMonitored(Map<String, Long> sent, Map<String, Long> inScripts, long pairs) {
		sent.forEach((name, count) -> {
			if (!name.equals(RedisMonitor.SCRIPT_TOTAL)) {
				this.sent.merge(name, count, Long::sum);
			}
		});
		inScripts.forEach((name, count) -> this.inScripts.merge(name, count, Long::sum));
		this.monitoredPairs += pairs;
	}

	/** Every call commandstats counted per pair, commands run inside scripts included. */
	double callsPerPair() {
		return (double) CommandStats.total(this.calls) / Math.max(1, this.pairs);
	}

	/**
	 * Commands the client sent per pair, as {@code MONITOR} saw them.
	 * @return the round trips per pair, {@code NaN} without a counting pass
	 */
	double roundTripsPerPair() {
		return (this.monitoredPairs > 0) ? (double) CommandStats.total(this.sent) / this.monitoredPairs : Double.NaN;
	}

	/**
	 * Commands run inside scripts per pair, as {@code MONITOR} saw them.
	 * @return the commands per pair, {@code NaN} without a counting pass
	 */
	double inScriptsPerPair() {
		return (this.monitoredPairs > 0) ? (double) CommandStats.total(this.inScripts) / this.monitoredPairs
				: Double.NaN;
	}

	/**
	 * The calls per pair by command, as commandstats counted them, with the commands that
	 * scripts ran in parentheses after the script command, such as
	 * {@code evalsha 1.00 (get 1.00, del 1.00), set 1.00}. A command that both clients
	 * and scripts ran is split in the proportion the counting pass saw; without one
	 * nothing is split.
	 * @return the breakdown, most calls first, figures under 0.005 left out, a subcommand
	 * as {@code script load}
	 */
	String breakdown() {
		Map<String, Double> topLevel = new TreeMap<>();
		Map<String, Double> scripted = new TreeMap<>();
		this.calls.forEach((name, count) -> {
			double perPair = (double) count / Math.max(1, this.pairs);
			long inScript = this.inScripts.getOrDefault(name, 0L);
			long seen = inScript + this.sent.getOrDefault(name, 0L);
			double scriptShare = (seen > 0) ? (double) inScript / seen : 0;
			topLevel.put(name, perPair * (1 - scriptShare));
			scripted.put(name, perPair * scriptShare);
		});
		List<String> scriptParts = sorted(scripted);
		List<String> names = sortedNames(topLevel);
		@Nullable String lastScript = null;
		for (String name : names) {
			if (SCRIPT_COMMANDS.contains(name)) {
				lastScript = name;
			}
		}
		List<String> parts = new ArrayList<>();
		for (String name : names) {
			String part = shown(name) + " " + MarkdownTable.number(topLevel.get(name), 2);
			if (name.equals(lastScript) && !scriptParts.isEmpty()) {
				part += " (" + String.join(", ", scriptParts) + ")";
			}
			parts.add(part);
		}
		if (lastScript == null && !scriptParts.isEmpty()) {
			parts.add("in scripts (" + String.join(", ", scriptParts) + ")");
		}
		return parts.isEmpty() ? "–" : String.join(", ", parts);
	}

	private static List<String> sorted(Map<String, Double> perPair) {
		return sortedNames(perPair).stream()
			.map((name) -> shown(name) + " " + MarkdownTable.number(perPair.get(name), 2))
			.toList();
	}

	/**
	 * A command's name as a table cell can hold it: commandstats names a subcommand
	 * {@code script|load}, and a bar would end the cell.
	 */
	private static String shown(String name) {
		return name.replace('|', ' ');
	}

	private static List<String> sortedNames(Map<String, Double> perPair) {
		return perPair.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() >= SHOWN)
			.sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
				.thenComparing(Map.Entry.comparingByKey()))
			.map(Map.Entry::getKey)
			.toList();
	}

	/**
	 * Renders a cell: calls per pair with two decimals.
	 * @param value the figure
	 * @return the text, a dash for {@code NaN}
	 */
	static String cell(double value) {
		return Double.isNaN(value) ? "–" : MarkdownTable.number(value, 2);
	}

	/**
	 * Renders the table of a scenario's commands.
	 * @param rows the contenders' names (with the key mode where there is one) and
	 * commands, in table order
	 * @param unit what one row counts per: {@code pair} or {@code hold}
	 * @return the table
	 */
	static String table(Map<String, PairCommands> rows, String unit) {
		MarkdownTable table = new MarkdownTable("contender", unit + "s measured / under MONITOR", "calls/" + unit,
				"round trips/" + unit, "in scripts/" + unit, "calls per " + unit + " by command (in scripts)");
		rows.forEach((name, commands) -> table.row(name,
				commands.pairs + " / " + ((commands.monitoredPairs > 0) ? commands.monitoredPairs : "–"),
				cell(commands.callsPerPair()), cell(commands.roundTripsPerPair()), cell(commands.inScriptsPerPair()),
				commands.breakdown()));
		return table.render();
	}

	/**
	 * Counts the commands the contenders' pairs send and run, with {@code MONITOR} on one
	 * server: a pass of pairs that is not timed, since {@code MONITOR} slows the server.
	 */
	static final class RoundTripCounter {

		private final String host;

		private final int port;

		private final StringRedisTemplate redis;

		/**
		 * Creates the counter.
		 * @param host the server's host
		 * @param port the server's port
		 * @param redis the harness's template on that server
		 */
		RoundTripCounter(String host, int port, StringRedisTemplate redis) {
			this.host = host;
			this.port = port;
			this.redis = redis;
		}

		/**
		 * Runs pairs under {@code MONITOR}.
		 * @param pairs runs the pairs and returns how many ran
		 * @param commands where the counts go
		 */
		void count(PairRunner pairs, PairCommands commands) {
			try (RedisMonitor monitor = new RedisMonitor(this.host, this.port)) {
				monitor.awaitCaughtUp(this.redis);
				Map<String, Long> sentBefore = monitor.snapshot();
				Map<String, Long> scriptsBefore = monitor.scriptSnapshot();
				long ran = pairs.run();
				monitor.awaitCaughtUp(this.redis);
				commands.addMonitored(CommandStats.delta(sentBefore, monitor.snapshot()),
						CommandStats.delta(scriptsBefore, monitor.scriptSnapshot()), ran);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while counting round trips", ex);
			}
			catch (Exception ex) {
				throw new IllegalStateException("Could not count round trips with MONITOR", ex);
			}
		}

	}

	/** Runs pairs of one contender. */
	@FunctionalInterface
	interface PairRunner {

		/**
		 * Runs the pairs.
		 * @return how many ran
		 * @throws Exception on failure
		 */
		long run() throws Exception;

	}

	/**
	 * Returns a counter for a server, or none for a cluster.
	 * @param target the Redis
	 * @param redis the harness's template
	 * @return the counter, or {@code null} on a cluster
	 */
	static @Nullable RoundTripCounter roundTripCounter(RedisTarget target, StringRedisTemplate redis) {
		if (target.cluster()) {
			return null;
		}
		URI uri = URI.create(target.address());
		return new RoundTripCounter(uri.getHost(), uri.getPort(), redis);
	}

}
