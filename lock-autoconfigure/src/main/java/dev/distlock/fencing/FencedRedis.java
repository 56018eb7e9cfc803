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

package dev.distlock.fencing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;
import org.springframework.util.StreamUtils;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;

/**
 * Fenced writes to data kept in Redis: a set, a hash field put and an increment that each
 * apply only if the fencing token stored beside the data is not above the writer's, and
 * store the writer's token with the write, in one script: <pre class="code">
 * &#64;DistributedLock(key = "'lock:sku:' + #sku")
 * public void restock(long sku, long count) {
 *     fencedRedis.increment("stock:" + sku, count);
 * }
 * </pre> The token is the one of the lock held by the current
 * {@link dev.distlock.DistributedLock @DistributedLock} method
 * ({@link dev.distlock.LockContext}); {@link #under(LockHandle)} names a programmatic
 * hold instead. A write whose token is below the stored one (a later holder of the lock
 * has written) changes nothing and throws {@link StaleFencingTokenException}, after
 * telling the {@link FencedWriteListener}. A hold's own writes all carry its token, so a
 * locked method may write a key more than once.
 * <p>
 * The token of a key is kept in a companion key in the same hash slot,
 * {@link #fenceKey(String)}: a string for {@link #set(String, String)} and
 * {@link #increment(String, long)}, a hash with one token per field for
 * {@link #putHashField(String, String, String)}. The companion key never expires: delete
 * the data alone and a stale holder still cannot write it again; delete both only when no
 * holder can still be running. The data may live on the Redis of the locks or on another:
 * the writes go through the {@link RedisOperations} they are given.
 */
public final class FencedRedis {

	static final String STORE = "redis";

	private static final String SCRIPTS = "dev/distlock/fencing/";

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static final RedisScript<List<Object>> SET = (RedisScript) load("set.lua");

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static final RedisScript<List<Object>> HASH_PUT = (RedisScript) load("hash-put.lua");

	@SuppressWarnings({ "unchecked", "rawtypes" })
	static final RedisScript<List<Object>> INCREMENT = (RedisScript) load("increment.lua");

	private final RedisOperations<String, String> redis;

	private final FencedWriteListener listener;

	private final @Nullable LockHandle handle;

	private final @Nullable String lockKey;

	/**
	 * Creates fenced writes to the Redis of a connection factory, telling no listener of
	 * refusals.
	 * @param connectionFactory the connection factory of the Redis that keeps the data
	 */
	public FencedRedis(RedisConnectionFactory connectionFactory) {
		this(new StringRedisTemplate(connectionFactory), FencedWriteListener.NONE);
	}

	/**
	 * Creates fenced writes through string operations, such as a
	 * {@link StringRedisTemplate}.
	 * @param redis the operations of the Redis that keeps the data, with string keys and
	 * values
	 * @param listener told of every refused write
	 */
	public FencedRedis(RedisOperations<String, String> redis, FencedWriteListener listener) {
		this(redis, listener, null, null);
	}

	private FencedRedis(RedisOperations<String, String> redis, FencedWriteListener listener,
			@Nullable LockHandle handle, @Nullable String lockKey) {
		this.redis = redis;
		this.listener = listener;
		this.handle = handle;
		this.lockKey = lockKey;
	}

	/**
	 * Returns fenced writes made under a programmatic hold (from
	 * {@link dev.distlock.LockClient}) rather than the current locked method's.
	 * @param handle the hold whose token to write
	 * @return fenced writes under that hold
	 */
	public FencedRedis under(LockHandle handle) {
		Assert.notNull(handle, "handle must not be null");
		return new FencedRedis(this.redis, this.listener, handle, this.lockKey);
	}

	/**
	 * Returns fenced writes that take the token of one key of a lock of several keys.
	 * @param key the Redis key of the lock that protects the data, as
	 * {@link LockHandle#keys()} reports it (with {@code distlock.key-prefix})
	 * @return fenced writes with that key's token
	 */
	public FencedRedis forLockKey(String key) {
		Assert.hasText(key, "key must not be empty");
		return new FencedRedis(this.redis, this.listener, this.handle, key);
	}

	/**
	 * Sets a string key to a value ({@code SET}) if no later holder has written it.
	 * @param key the data key
	 * @param value the value
	 * @throws StaleFencingTokenException if the key carries a higher token
	 * @throws IllegalStateException if no lock is held on this thread and no handle was
	 * given
	 * @throws LeaseLostBeforeWriteException if the hold's lease is lost (nothing is sent)
	 */
	public void set(String key, String value) {
		Assert.notNull(value, "value must not be null");
		write(SET, key, null, value, "key " + quote(key));
	}

	/**
	 * Sets one field of a hash ({@code HSET}) if no later holder has written that field;
	 * each field has its own token, so the fields of one hash may be protected by
	 * different locks.
	 * @param key the hash key
	 * @param field the field
	 * @param value the value
	 * @throws StaleFencingTokenException if the field carries a higher token
	 * @throws IllegalStateException if no lock is held on this thread and no handle was
	 * given
	 * @throws LeaseLostBeforeWriteException if the hold's lease is lost (nothing is sent)
	 */
	public void putHashField(String key, String field, String value) {
		Assert.notNull(field, "field must not be null");
		Assert.notNull(value, "value must not be null");
		write(HASH_PUT, key, field, value, "field " + quote(field) + " of hash " + quote(key));
	}

	/**
	 * Adds to an integer key ({@code INCRBY}, a missing key counting as 0) if no later
	 * holder has written it.
	 * @param key the data key
	 * @param delta what to add, negative to subtract
	 * @return the value after the increment
	 * @throws StaleFencingTokenException if the key carries a higher token
	 * @throws IllegalStateException if no lock is held on this thread and no handle was
	 * given
	 * @throws LeaseLostBeforeWriteException if the hold's lease is lost (nothing is sent)
	 */
	public long increment(String key, long delta) {
		return write(INCREMENT, key, null, Long.toString(delta), "key " + quote(key));
	}

	/**
	 * Returns the key that keeps the fencing tokens of a data key, in the data key's hash
	 * slot: the data key followed by {@code :fence} if it has a hash tag
	 * ({@code {user:1}:cart} keeps its token in {@code {user:1}:cart:fence}), otherwise
	 * the data key in braces, which hash as the key itself, followed by {@code :fence}
	 * ({@code stock:25} keeps its token in {@code {stock:25}:fence}).
	 * @param key the data key
	 * @return the key of its fencing tokens
	 * @throws IllegalArgumentException if the key has no hash tag but contains a
	 * {@code '}'}: give it a hash tag
	 */
	public static String fenceKey(String key) {
		Assert.hasLength(key, "key must not be empty");
		int open = key.indexOf('{');
		if (open >= 0) {
			int close = key.indexOf('}', open + 1);
			if (close > open + 1) {
				return key + ":fence";
			}
		}
		Assert.isTrue(key.indexOf('}') < 0, () -> "The key " + quote(key) + " has no hash tag but contains '}', so "
				+ "no companion key in its hash slot can be named: give it a hash tag (a part in braces)");
		return "{" + key + "}:fence";
	}

	private long write(RedisScript<List<Object>> script, String key, @Nullable String field, String value,
			String target) {
		String fenceKey = fenceKey(key);
		FencedHold hold = FencedHold.resolve(this.handle, this.lockKey, "the fenced write to " + target);
		String token = Long.toString(hold.token());
		List<String> args = (field != null) ? List.of(token, field, value) : List.of(token, value);
		List<Object> reply = this.redis.execute(script, List.of(key, fenceKey), args.toArray());
		Assert.state(reply != null && reply.size() == 2,
				() -> "The fenced write to " + target + " got no reply from Redis (in a pipeline or transaction?)");
		long number = Long.parseLong(String.valueOf(reply.get(1)));
		if (Long.parseLong(String.valueOf(reply.get(0))) == 1) {
			return number;
		}
		StaleFencingTokenException refusal = new StaleFencingTokenException(STORE, target, hold.token(), number,
				hold.lockKey(), hold.lockName());
		this.listener.refused(refusal);
		throw refusal;
	}

	private static String quote(String text) {
		return LockKeyQuoting.quote(text);
	}

	private static RedisScript<List<?>> load(String name) {
		try (InputStream in = new ClassPathResource(SCRIPTS + name, FencedRedis.class.getClassLoader())
			.getInputStream()) {
			@SuppressWarnings({ "unchecked", "rawtypes" })
			RedisScript<List<?>> script = (RedisScript) RedisScript
				.of(StreamUtils.copyToString(in, StandardCharsets.UTF_8), List.class);
			script.getSha1();
			return script;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read fencing script " + name, ex);
		}
	}

	/**
	 * Keeps the fencing scripts in a native image. Registered in
	 * {@code META-INF/spring/aot.factories}.
	 */
	static final class FencedRedisRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.resources().registerPattern(SCRIPTS + "*.lua");
		}

	}

}
