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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

/**
 * The Lua scripts of the lock, each read once from the class path into a script with
 * static text, so that its SHA1 is computed once and calls go through {@code EVALSHA}. (A
 * script built on a resource location re-checks the resource on every call, which cost
 * several microseconds per lock operation.) {@link LockScriptsRuntimeHints} keeps them in
 * a native image.
 */
final class LockScripts {

	/** Where the scripts are on the class path. */
	private static final String SCRIPTS = "dev/distlock/redis/";

	/**
	 * Sets the lock and reserves fencing tokens, or returns the holder's remaining lease
	 * and the fencing counter.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> ACQUIRE = (RedisScript) load("acquire.lua", List.class);

	/**
	 * Sets the locks of several keys of one slot if all are free, each with its own
	 * fencing token, or returns which key is held and its remaining lease.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> MULTI_ACQUIRE = (RedisScript) load("multi-acquire.lua", List.class);

	/**
	 * Deletes (or keeps until the minimum hold) the lock if it holds the token, and
	 * publishes.
	 */
	static final RedisScript<Long> RELEASE = load("release.lua", Long.class);

	/**
	 * Deletes the lock if its value is exactly the token: the release of an exclusive
	 * lock that nobody waits for, where the server has no native conditional delete
	 * ({@link ConditionalDelete}).
	 */
	static final RedisScript<Long> DELETE_IF_EQUAL = load("delete-if-equal.lua", Long.class);

	/** Extends the leases of the locks that still hold their tokens. */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> RENEW = (RedisScript) load("renew.lua", List.class);

	/**
	 * Issues the fencing token of an exclusive lock acquired without a script, to its
	 * owner only; replies 0 to anyone else.
	 */
	static final RedisScript<Long> FENCE = load("fence.lua", Long.class);

	/**
	 * Grants one hold of a shared lock (a reader, a writer, a permit), or queues the
	 * caller; replies as {@link #ACQUIRE}.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> SHARED_ACQUIRE = (RedisScript) load("shared-acquire.lua", List.class);

	/**
	 * Ends one hold of a shared lock and hands it to as many waiters as may hold it now;
	 * replies as {@link #RELEASE}.
	 */
	static final RedisScript<Long> SHARED_RELEASE = load("shared-release.lua", Long.class);

	/**
	 * Reports a lock's time to live and whether one of the given tokens holds it; for a
	 * shared lock, every holder's kind and lease, the permits and the waiters.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static final RedisScript<List<Long>> INSPECT = (RedisScript) load("inspect.lua", List.class);

	/** Every script by name, for checking that Redis has them. */
	static final Map<String, RedisScript<?>> ALL = all();

	private LockScripts() {
	}

	private static Map<String, RedisScript<?>> all() {
		Map<String, RedisScript<?>> all = new LinkedHashMap<>();
		all.put("acquire", ACQUIRE);
		all.put("multi-acquire", MULTI_ACQUIRE);
		all.put("release", RELEASE);
		all.put("delete-if-equal", DELETE_IF_EQUAL);
		all.put("renew", RENEW);
		all.put("fence", FENCE);
		all.put("inspect", INSPECT);
		all.put("shared-acquire", SHARED_ACQUIRE);
		all.put("shared-release", SHARED_RELEASE);
		return Collections.unmodifiableMap(all);
	}

	/**
	 * Returns the acquire script that serves an owner token: the shared one for a token
	 * that carries a kind ({@link SharedTokens}).
	 */
	static RedisScript<List<Long>> acquire(String token) {
		return SharedTokens.isShared(token) ? SHARED_ACQUIRE : ACQUIRE;
	}

	/** Returns the release script that serves an owner token. */
	static RedisScript<Long> release(String token) {
		return SharedTokens.isShared(token) ? SHARED_RELEASE : RELEASE;
	}

	private static <T> RedisScript<T> load(String name, Class<T> resultType) {
		try (InputStream in = new ClassPathResource(SCRIPTS + name, LockScripts.class.getClassLoader())
			.getInputStream()) {
			RedisScript<T> script = RedisScript.of(StreamUtils.copyToString(in, StandardCharsets.UTF_8), resultType);
			script.getSha1();
			return script;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read lock script " + name, ex);
		}
	}

	/**
	 * Keeps the scripts in a native image, which contains only the resources it is told
	 * about. Registered in {@code META-INF/spring/aot.factories}.
	 */
	static final class LockScriptsRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.resources().registerPattern(SCRIPTS + "*.lua");
		}

	}

}
