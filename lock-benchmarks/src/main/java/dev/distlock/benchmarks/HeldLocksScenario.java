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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Scenario 4: many locks held at once with auto-renewal, one contender per JVM (see
 * {@link HeldLocksProcess}), one after the other on a flushed server.
 */
final class HeldLocksScenario {

	/**
	 * Contenders that can hold locks apart from a method call; the blog lock has no
	 * renewal.
	 */
	static final List<String> CONTENDERS = List.of("distlock-client", "redisson", "si-spin", "si-pubsub");

	/**
	 * The renewal period the per-period figure is normalized to (Redisson's and Spring
	 * Integration's).
	 */
	private static final int PERIOD_SECONDS = 10;

	private final String redisUrl;

	private final StringRedisTemplate redis;

	private final BenchSizes sizes;

	private final List<String> contenders;

	HeldLocksScenario(String redisUrl, StringRedisTemplate redis, BenchSizes sizes, List<String> contenders) {
		this.redisUrl = redisUrl;
		this.redis = redis;
		this.sizes = sizes;
		this.contenders = contenders;
	}

	List<Map<String, String>> run() {
		List<Map<String, String>> results = new ArrayList<>();
		for (String id : this.contenders) {
			this.redis.execute((RedisCallback<Void>) (connection) -> {
				connection.serverCommands().flushAll();
				return null;
			});
			System.err.println("  held locks: " + id);
			try (ForkedJvm jvm = ForkedJvm.start("1g", HeldLocksProcess.class, this.redisUrl, id,
					Integer.toString(this.sizes.heldLocks()), Integer.toString(this.sizes.heldSeconds()),
					Integer.toString(this.sizes.churnCycles()), Integer.toString(this.sizes.afterChurnSeconds()))) {
				results.add(parse(jvm.reply()));
			}
		}
		return results;
	}

	private static Map<String, String> parse(String reply) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String field : reply.split("\t")) {
			int equals = field.indexOf('=');
			fields.put(field.substring(0, equals), field.substring(equals + 1));
		}
		return fields;
	}

	static Map<String, Long> counts(String encoded) {
		Map<String, Long> counts = new TreeMap<>();
		if (!encoded.isEmpty()) {
			for (String entry : encoded.split(",")) {
				int colon = entry.lastIndexOf(':');
				counts.put(entry.substring(0, colon), Long.parseLong(entry.substring(colon + 1)));
			}
		}
		return counts;
	}

	/**
	 * Round trips per second in a window: client commands, without connection keep-alive
	 * PINGs.
	 */
	static double roundTripsPerSecond(Map<String, String> result, String window) {
		Map<String, Long> monitor = counts(result.get(window + "Monitor"));
		long roundTrips = monitor.entrySet()
			.stream()
			.filter((e) -> !e.getKey().equals("ping") && !e.getKey().equals("(lua)"))
			.mapToLong(Map.Entry::getValue)
			.sum();
		return roundTrips / Double.parseDouble(result.get(window + "Seconds"));
	}

	static String table(List<Map<String, String>> results, int locks) {
		MarkdownTable table = new MarkdownTable("contender", "lease", "acquire all s", "keys held", "round trips/s",
				"per 100 locks per 10 s", "commands/s (commandstats)", "after churn: round trips/s",
				"after churn: per 100 locks per 10 s", "threads idle → held → after churn", "heap MB idle → held",
				"keys left after release");
		MarkdownTable detail = new MarkdownTable("contender", "window", "s", "client commands (MONITOR)",
				"commands incl. inside scripts (INFO commandstats)");
		for (Map<String, String> result : results) {
			double first = roundTripsPerSecond(result, "first");
			double afterChurn = roundTripsPerSecond(result, "afterChurn");
			double commands = CommandStats.total(counts(result.get("firstCommandstats")))
					/ Double.parseDouble(result.get("firstSeconds"));
			table.row(result.get("name"), result.get("lease"), result.get("acquireSeconds"), result.get("keysHeld"),
					MarkdownTable.number(first, 1), MarkdownTable.number(perPeriod(first, locks), 2),
					MarkdownTable.number(commands, 1), MarkdownTable.number(afterChurn, 1),
					MarkdownTable.number(perPeriod(afterChurn, locks), 2),
					result.get("threadsIdle") + " → " + result.get("threadsHeld") + " → "
							+ result.get("threadsAfterChurn"),
					result.get("heapIdleMb") + " → " + result.get("heapHeldMb"), result.get("keysLeft"));
			for (String window : List.of("first", "afterChurn")) {
				detail.row(result.get("name"), window, result.get(window + "Seconds"),
						empty(result.get(window + "Monitor")), empty(result.get(window + "Commandstats")));
			}
		}
		return table.render() + "\nCommands counted in the measuring windows:\n\n" + detail.render();
	}

	private static double perPeriod(double perSecond, int locks) {
		return perSecond * PERIOD_SECONDS / (locks / 100.0);
	}

	private static String empty(String encoded) {
		return encoded.isEmpty() ? "none" : encoded.replace(",", ", ");
	}

}
