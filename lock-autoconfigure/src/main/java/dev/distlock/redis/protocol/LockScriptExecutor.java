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

import java.util.List;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultScriptExecutor;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * Runs the lock scripts as the template does ({@code EVALSHA}, then {@code EVAL} if the
 * server does not have the script, keys and arguments serialized by the template), but on
 * the template's own connection rather than the close-suppressing proxy that
 * {@link DefaultScriptExecutor} has the template build for every call: a lock takes and
 * frees a key with one script call each, and the proxy, created and invoked by
 * reflection, was a measurable part of the caller's time. The connection is never closed
 * here; the template closes it, as it does its proxy.
 */
final class LockScriptExecutor extends DefaultScriptExecutor<String> {

	private final StringRedisTemplate redis;

	LockScriptExecutor(StringRedisTemplate redis) {
		super(redis);
		this.redis = redis;
	}

	@Override
	public <T> T execute(RedisScript<T> script, RedisSerializer<?> argsSerializer, RedisSerializer<T> resultSerializer,
			List<String> keys, Object... args) {
		return this.redis.execute((RedisCallback<T>) (connection) -> {
			requireOwnReply(connection);
			ReturnType returnType = ReturnType.fromJavaType(script.getResultType());
			byte[][] keysAndArgs = keysAndArgs(argsSerializer, keys, args);
			return eval(connection, script, returnType, keys.size(), keysAndArgs, resultSerializer);
		}, true);
	}

	/**
	 * Sets the key to the value if it does not exist, with a time to live, on the
	 * template's own connection ({@code SET key value NX PX millis}), serialized as
	 * {@code opsForValue().setIfAbsent} would.
	 * @return whether it was set
	 */
	boolean setIfAbsent(String key, String value, long millis) {
		byte[] rawKey = serialized(keySerializer(), key);
		byte[] rawValue = serialized(this.redis.getValueSerializer(), value);
		return this.redis.execute((RedisCallback<Boolean>) (connection) -> {
			requireOwnReply(connection);
			return Boolean.TRUE.equals(connection.stringCommands()
				.set(rawKey, rawValue, Expiration.milliseconds(millis), SetOption.ifAbsent()));
		}, true);
	}

	/**
	 * Refuses a connection that answers later, in a pipeline or a transaction that the
	 * calling thread has open on the same template: a lock must know at once whether it
	 * was granted or released.
	 */
	private static void requireOwnReply(RedisConnection connection) {
		if (connection.isPipelined() || connection.isQueueing()) {
			throw new IllegalStateException("distlock cannot take or release a lock inside a Redis "
					+ "pipeline or transaction of the template it uses (executePipelined, multi/exec, or a template "
					+ "with transaction support in a @Transactional method): its replies would come only with the "
					+ "pipeline's or the transaction's; take the lock outside it, or give distlock a template of its "
					+ "own");
		}
	}

	@SuppressWarnings("unchecked")
	private static byte[] serialized(RedisSerializer<?> serializer, String value) {
		byte[] raw = ((RedisSerializer<String>) serializer).serialize(value);
		if (raw == null) {
			throw new IllegalStateException("The template's serializer turned '" + value + "' into null");
		}
		return raw;
	}

}
