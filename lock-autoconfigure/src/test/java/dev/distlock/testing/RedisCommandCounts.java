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

package dev.distlock.testing;

import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Reads how often Redis has run a command, from {@code INFO commandstats}; commands run
 * inside scripts count too. Tests run one after another, so the difference between two
 * readings is what the code in between sent.
 */
public final class RedisCommandCounts {

	private static final Pattern CALLS = Pattern.compile("calls=(\\d+)");

	private RedisCommandCounts() {
	}

	/**
	 * Returns how many times the server has run a command since it started.
	 * @param redis a template on the server
	 * @param command the command, in lower case
	 * @return the number of calls, 0 if it never ran
	 */
	public static long calls(StringRedisTemplate redis, String command) {
		Properties stats = redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("commandstats"));
		String line = (stats != null) ? stats.getProperty("cmdstat_" + command) : null;
		if (line == null) {
			return 0;
		}
		Matcher matcher = CALLS.matcher(line);
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

}
