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
