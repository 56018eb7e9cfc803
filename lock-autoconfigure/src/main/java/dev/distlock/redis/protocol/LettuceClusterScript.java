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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.ClusterStateFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Runs a lock script and, if it wrote what replicas must acknowledge, {@code WAIT} on one
 * node connection of a Redis Cluster through Lettuce: the write connection to the master
 * that serves the slot of the script's keys in Lettuce's view of the cluster, the same
 * pooled connection that Lettuce routes the slot's commands over. A {@code MOVED} or
 * {@code ASK} reply (the slot moved, so the script did not run) fails the call as
 * unavailable instead of following it, since {@code WAIT} would then run elsewhere.
 * Loaded only if Lettuce is present.
 */
final class LettuceClusterScript {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			LettuceClusterScript.class.getClassLoader());

	private LettuceClusterScript() {
	}

	static boolean supports(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isLettuce(connectionFactory);
	}

	/**
	 * Runs the script with the keys (all in one slot, the lock's first) and arguments on
	 * the node connection of their slot, and {@code WAIT} on it if the script wrote.
	 * @param connection the template's cluster connection, not its proxy
	 * @param script a script that replies with an integer or a list of integers
	 * @param replicas how many replicas {@code WAIT} waits for
	 * @param timeoutMillis how long {@code WAIT} waits
	 * @param wrote tells from the reply whether the script wrote what must be
	 * acknowledged
	 * @return the reply, and how many replicas acknowledged it
	 */
	static <T> AcknowledgedReply<T> run(RedisConnection connection, RedisScript<T> script, int replicas,
			long timeoutMillis, List<String> keys, Predicate<T> wrote, String... args) {
		if (!LETTUCE_PRESENT) {
			throw new IllegalStateException("distlock.replication.min-replicas-acked needs Lettuce on a Redis Cluster");
		}
		return Lettuce.run(connection, script, replicas, timeoutMillis, keys, wrote, args);
	}

	/** The Lettuce part, in a class of its own so that it loads only with Lettuce. */
	private static final class Lettuce {

		static boolean isLettuce(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory;
		}

		static <T> AcknowledgedReply<T> run(RedisConnection connection, RedisScript<T> script, int replicas,
				long timeoutMillis, List<String> keys, Predicate<T> wrote, String... args) {
			if (!(connection.getNativeConnection() instanceof RedisAdvancedClusterAsyncCommands<?, ?> commands)) {
				throw new IllegalStateException("distlock.replication.min-replicas-acked on a Redis Cluster needs a "
						+ "Lettuce cluster connection, not " + connection.getClass().getName());
			}
			@SuppressWarnings("unchecked")
			StatefulRedisClusterConnection<byte[], byte[]> cluster = (StatefulRedisClusterConnection<byte[], byte[]>) commands
				.getStatefulConnection();
			byte[][] keyBytes = keys.stream().map(Lettuce::bytes).toArray(byte[][]::new);
			int slot = SlotHash.getSlot(keyBytes[0]);
			RedisClusterNode master = cluster.getPartitions().getMasterBySlot(slot);
			if (master == null) {
				throw new ClusterStateFailureException("No master serves slot " + slot + " of lock " + keys.get(0));
			}
			try {
				RedisCommands<byte[], byte[]> node = cluster
					.getConnection(master.getUri().getHost(), master.getUri().getPort(), ConnectionIntent.WRITE)
					.sync();
				T reply = script(node, script, keyBytes, args);
				if (!wrote.test(reply)) {
					return new AcknowledgedReply<>(reply, AcknowledgedReply.NOT_ASKED);
				}
				return new AcknowledgedReply<>(reply, node.waitForReplication(replicas, timeoutMillis));
			}
			catch (RedisCommandExecutionException ex) {
				throw redirected(ex, slot, keys.get(0));
			}
			catch (RuntimeException ex) {
				DataAccessException translated = new LettuceExceptionConverter().convert(ex);
				throw (translated != null) ? translated : ex;
			}
		}

		@SuppressWarnings("unchecked")
		private static <T> T script(RedisCommands<byte[], byte[]> node, RedisScript<T> script, byte[][] keys,
				String... args) {
			byte[][] values = Arrays.stream(args).map(Lettuce::bytes).toArray(byte[][]::new);
			Class<?> resultType = script.getResultType();
			boolean list = resultType != null && List.class.isAssignableFrom(resultType);
			ScriptOutputType output = list ? ScriptOutputType.MULTI : ScriptOutputType.INTEGER;
			Object reply;
			try {
				reply = node.evalsha(script.getSha1(), output, keys, values);
			}
			catch (RedisNoScriptException ex) {
				// EVAL loads the script into the node's cache for the next EVALSHA.
				reply = node.eval(bytes(script.getScriptAsString()), output, keys, values);
			}
			if (!list) {
				return (T) reply;
			}
			List<Long> longs = new ArrayList<>();
			for (Object element : (List<?>) reply) {
				longs.add((Long) element);
			}
			return (T) longs;
		}

		private static RuntimeException redirected(RedisCommandExecutionException ex, int slot, String key) {
			String message = String.valueOf(ex.getMessage());
			if (message.startsWith("MOVED") || message.startsWith("ASK")) {
				return new ClusterStateFailureException(
						"Slot " + slot + " of lock " + key + " moved (" + message
								+ "): the lock command did not run; it can once the client has learnt the new topology",
						ex);
			}
			DataAccessException translated = new LettuceExceptionConverter().convert(ex);
			return (translated != null) ? translated : ex;
		}

		private static byte[] bytes(String value) {
			return value.getBytes(StandardCharsets.UTF_8);
		}

	}

}
