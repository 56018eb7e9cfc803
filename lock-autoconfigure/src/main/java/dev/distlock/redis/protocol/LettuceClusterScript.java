package dev.distlock.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * Runs the acquire script and, after a grant, {@code WAIT} on one node connection of a
 * Redis Cluster through Lettuce: the write connection to the master that serves the
 * lock's slot in Lettuce's view of the cluster, the same pooled connection that Lettuce
 * routes the slot's commands over. A {@code MOVED} or {@code ASK} reply (the slot moved,
 * so the script did not run) fails the attempt as unavailable instead of following it,
 * since {@code WAIT} would then run elsewhere. Loaded only if Lettuce is present.
 */
final class LettuceClusterAcquire {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			LettuceClusterAcquire.class.getClassLoader());

	private LettuceClusterAcquire() {
	}

	static boolean supports(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isLettuce(connectionFactory);
	}

	/**
	 * Runs the script with the keys (the lock's key first) and arguments on the node
	 * connection of the lock's slot, and {@code WAIT} on it after a grant.
	 * @param connection the template's cluster connection, not its proxy
	 * @param replicas how many replicas {@code WAIT} waits for
	 * @param timeoutMillis how long {@code WAIT} waits
	 * @return the script's reply, with the acknowledgements appended to a grant
	 */
	static List<Long> acquire(RedisConnection connection, int replicas, long timeoutMillis, List<String> keys,
			String... args) {
		if (!LETTUCE_PRESENT) {
			throw new IllegalStateException("distlock.replication.min-replicas-acked needs Lettuce on a Redis Cluster");
		}
		return Lettuce.acquire(connection, replicas, timeoutMillis, keys, args);
	}

	/** The Lettuce part, in a class of its own so that it loads only with Lettuce. */
	private static final class Lettuce {

		static boolean isLettuce(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory;
		}

		static List<Long> acquire(RedisConnection connection, int replicas, long timeoutMillis, List<String> keys,
				String... args) {
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
				List<Long> reply = script(node, keyBytes, args);
				if (reply.isEmpty() || reply.get(0) != 1) {
					return reply;
				}
				reply.add(node.waitForReplication(replicas, timeoutMillis));
				return reply;
			}
			catch (RedisCommandExecutionException ex) {
				throw redirected(ex, slot, keys.get(0));
			}
			catch (RuntimeException ex) {
				DataAccessException translated = new LettuceExceptionConverter().convert(ex);
				throw (translated != null) ? translated : ex;
			}
		}

		private static List<Long> script(RedisCommands<byte[], byte[]> node, byte[][] keys, String... args) {
			byte[][] values = Arrays.stream(args).map(Lettuce::bytes).toArray(byte[][]::new);
			RedisScript<List<Long>> acquire = LockScripts.acquire(args[0]);
			List<?> reply;
			try {
				reply = node.evalsha(acquire.getSha1(), ScriptOutputType.MULTI, keys, values);
			}
			catch (RedisNoScriptException ex) {
				// EVAL loads the script into the node's cache for the next EVALSHA.
				reply = node.eval(bytes(acquire.getScriptAsString()), ScriptOutputType.MULTI, keys, values);
			}
			List<Long> longs = new ArrayList<>(reply.size() + 1);
			for (Object element : reply) {
				longs.add((Long) element);
			}
			return longs;
		}

		private static RuntimeException redirected(RedisCommandExecutionException ex, int slot, String key) {
			String message = String.valueOf(ex.getMessage());
			if (message.startsWith("MOVED") || message.startsWith("ASK")) {
				return new ClusterStateFailureException(
						"Slot " + slot + " of lock " + key + " moved (" + message
								+ "): the lock was not acquired; it can be once the client has learnt the new topology",
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
