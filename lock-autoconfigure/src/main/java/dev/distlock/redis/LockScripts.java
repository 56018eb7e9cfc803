package dev.distlock.redis;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Lua scripts of the lock, each loaded once so that its SHA1 is computed once and calls go
 * through {@code EVALSHA}.
 */
final class LockScripts {

	/** Deletes the lock only if it holds the given token; returns 1 if deleted, else 0. */
	static final RedisScript<Long> RELEASE = load("release.lua");

	private LockScripts() {
	}

	private static RedisScript<Long> load(String name) {
		DefaultRedisScript<Long> script = new DefaultRedisScript<>();
		script.setLocation(new ClassPathResource(name, LockScripts.class));
		script.setResultType(Long.class);
		script.getSha1();
		return script;
	}

}
