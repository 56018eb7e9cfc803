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

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Reads {@code INFO commandstats}: calls per command since the server started, including
 * commands run inside Lua scripts.
 */
final class CommandStats {

	private CommandStats() {
	}

	static Map<String, Long> calls(StringRedisTemplate redis) {
		Properties info = redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		Map<String, Long> calls = new TreeMap<>();
		info.forEach((key, value) -> {
			String name = key.toString();
			if (name.startsWith("cmdstat_")) {
				String stats = value.toString();
				int start = stats.indexOf("calls=") + "calls=".length();
				int end = stats.indexOf(',', start);
				calls.put(name.substring("cmdstat_".length()), Long.parseLong(stats.substring(start, end)));
			}
		});
		return calls;
	}

	/**
	 * Reads how long Redis spent in a command since the server started, in µs: for
	 * {@code evalsha}, the scripts with the commands they run.
	 * @param redis the template of the server
	 * @param command the command's name, lower case
	 * @return the calls and the µs
	 */
	static long[] callsAndMicros(StringRedisTemplate redis, String command) {
		Properties info = redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		Object value = info.get("cmdstat_" + command);
		if (value == null) {
			return new long[2];
		}
		String stats = value.toString();
		return new long[] { field(stats, "calls="), field(stats, "usec=") };
	}

	private static long field(String stats, String name) {
		int start = stats.indexOf(name) + name.length();
		int end = stats.indexOf(',', start);
		return Long.parseLong(stats.substring(start, (end < 0) ? stats.length() : end));
	}

	/**
	 * Returns what changed between two snapshots, leaving out the commands the harness
	 * itself sends while measuring.
	 * @param before the earlier snapshot
	 * @param after the later snapshot
	 * @return the calls in between by command, without zeros
	 */
	static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
		Map<String, Long> delta = new TreeMap<>();
		after.forEach((name, count) -> {
			long change = count - before.getOrDefault(name, 0L);
			if (change > 0 && !name.equals("info") && !name.equals("monitor") && !name.equals("echo")) {
				delta.put(name, change);
			}
		});
		return delta;
	}

	/**
	 * Counts the blocks of scenario 2 on one server.
	 * @param redis the harness's template on that server
	 * @return the counter
	 */
	static BlockCommands blockCommands(StringRedisTemplate redis) {
		return new BlockCommands() {

			private Map<String, Long> before = Map.of();

			@Override
			public void before() {
				this.before = calls(redis);
			}

			@Override
			public Map<String, Long> after(String contender) {
				return delta(this.before, calls(redis));
			}

		};
	}

	static long total(Map<String, Long> counts) {
		return counts.values().stream().mapToLong(Long::longValue).sum();
	}

}
