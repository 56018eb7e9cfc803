package dev.distlock.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the acquire script and, if it granted the lock, {@code WAIT} on the very
 * connection that sent the script, since {@code WAIT} counts the acknowledgements of that
 * connection's writes (on any other, with no writes of its own, it would return at once
 * with every connected replica). The number of replicas that acknowledged is appended to
 * the script's reply. On a standalone or Sentinel master both run in one session of the
 * template, which binds one connection; on a Redis Cluster both go over the write
 * connection to the master of the lock's slot ({@link LettuceClusterAcquire}).
 */
final class AcknowledgedAcquire {

	private final StringRedisTemplate redis;

	private final ReplicaAcknowledgement acknowledgement;

	private final boolean cluster;

	AcknowledgedAcquire(StringRedisTemplate redis, ReplicaAcknowledgement acknowledgement, boolean cluster) {
		this.redis = redis;
		this.acknowledgement = acknowledgement;
		this.cluster = cluster;
	}

	/**
	 * Runs the acquire script with the keys and arguments, and {@code WAIT} after a
	 * grant.
	 * @return the script's reply, with the acknowledgements appended to a grant
	 */
	@Nullable List<Long> acquire(List<String> keys, String... args) {
		if (this.cluster) {
			return this.redis.execute(
					(RedisCallback<List<Long>>) (connection) -> LettuceClusterAcquire.acquire(connection,
							this.acknowledgement.replicas(), this.acknowledgement.timeout().toMillis(), keys, args),
					true);
		}
		return this.redis.execute(new SessionCallback<List<Long>>() {

			@Override
			public <K, V> List<Long> execute(RedisOperations<K, V> operations) {
				// The session binds one connection: the script and WAIT both use it.
				checkNotCluster();
				List<Long> reply = AcknowledgedAcquire.this.redis.execute(LockScripts.acquire(args[0]), keys,
						(Object[]) args);
				if (reply == null || reply.isEmpty() || reply.get(0) != 1) {
					return (reply != null) ? reply : List.of();
				}
				List<Long> acknowledged = new ArrayList<>(reply);
				acknowledged.add(waitForReplicas());
				return acknowledged;
			}

		});
	}

	private void checkNotCluster() {
		if (Boolean.TRUE.equals(this.redis
			.execute((RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection))) {
			throw new IllegalStateException("Redis is a cluster, but the lock client was built without "
					+ "clusterSlots(true): distlock.replication.min-replicas-acked needs it to send WAIT on the "
					+ "node connection that wrote the lock");
		}
	}

	private long waitForReplicas() {
		Object acked = this.redis.execute(
				(RedisCallback<Object>) (connection) -> LettuceWait.send(connection,
						bytes(this.acknowledgement.replicas()), bytes(this.acknowledgement.timeout().toMillis())),
				true);
		if (!(acked instanceof Long count)) {
			throw new IllegalStateException("Unexpected reply of WAIT: " + acked);
		}
		return count;
	}

	private static byte[] bytes(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

}
