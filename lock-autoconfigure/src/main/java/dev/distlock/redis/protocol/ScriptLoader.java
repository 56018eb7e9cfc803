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

package dev.distlock.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Loads the lock scripts into Redis, in one round trip when Redis has them all: those it
 * lost (after a restart or {@code SCRIPT FLUSH}) are loaded again, and each one's SHA1 is
 * checked against the one calls use.
 */
final class ScriptLoader {

	private ScriptLoader() {
	}

	/**
	 * Makes sure Redis has every script, loading those it lacks.
	 * @return per script name, whether Redis already had it
	 */
	static Map<String, Boolean> loadScripts(StringRedisTemplate redis) {
		Map<String, Boolean> loaded = redis.execute((RedisCallback<Map<String, Boolean>>) (connection) -> {
			RedisScriptingCommands scripting = connection.scriptingCommands();
			String[] shas = LockScripts.ALL.values().stream().map(RedisScript::getSha1).toArray(String[]::new);
			List<Boolean> present = scripting.scriptExists(shas);
			Map<String, Boolean> result = new LinkedHashMap<>();
			int i = 0;
			for (Map.Entry<String, RedisScript<?>> script : LockScripts.ALL.entrySet()) {
				boolean exists = present != null && i < present.size() && Boolean.TRUE.equals(present.get(i));
				if (!exists) {
					load(scripting, script.getKey(), script.getValue());
				}
				result.put(script.getKey(), exists);
				i++;
			}
			return result;
		});
		return (loaded != null) ? loaded : Map.of();
	}

	private static void load(RedisScriptingCommands scripting, String name, RedisScript<?> script) {
		String sha = scripting.scriptLoad(script.getScriptAsString().getBytes(StandardCharsets.UTF_8));
		if (!script.getSha1().equals(sha)) {
			throw new InvalidDataAccessResourceUsageException(
					"Redis loaded the " + name + " script as " + sha + ", expected " + script.getSha1());
		}
	}

}
