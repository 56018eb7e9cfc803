package dev.distlock.redis.protocol;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * How many replicas must acknowledge the write of a grant, and how long to wait for them:
 * after a script that granted a lock, {@code WAIT replicas timeout} runs on the same
 * connection, in one session of the template, because {@code WAIT} counts the
 * acknowledgements of the writes of the connection it is sent on. With none required
 * ({@link #NONE}) the script runs alone, with no extra round trip.
 * <p>
 * On a Redis Cluster the template's {@code WAIT} is not routed to the node connection
 * that wrote the key, so there the acknowledgement is refused (fail closed): counted on
 * another connection, with no writes of its own, {@code WAIT} would return at once with
 * every connected replica.
 *
 * @param replicas how many replicas must acknowledge, 0 for none
 * @param timeout how long {@code WAIT} waits for them, at least 1ms if any are required
 */
public record ReplicaAcknowledgement(int replicas, Duration timeout) {

	/** No acknowledgement: a grant is trusted once the master wrote it. */
	public static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, Duration.ofMillis(100));

	public ReplicaAcknowledgement {
		Assert.isTrue(replicas >= 0, "replicas must not be negative");
		Assert.isTrue(replicas == 0 || timeout.toMillis() >= 1,
				"the timeout of a replica acknowledgement must be at least 1ms (WAIT 0 would block forever)");
	}

	/** Whether any replica must acknowledge a grant. */
	public boolean isRequired() {
		return this.replicas > 0;
	}

	/**
	 * Runs an acquire script and, if it granted the lock, {@code WAIT} on the same
	 * connection; the number of replicas that acknowledged is appended to the reply.
	 * @param redis the template
	 * @param script runs the script through the template
	 * @return the script's reply, with the acknowledgements appended to a grant
	 */
	@Nullable List<Long> acquire(StringRedisTemplate redis, Supplier<@Nullable List<Long>> script) {
		return redis.execute(new SessionCallback<List<Long>>() {

			@Override
			@SuppressWarnings("unchecked")
			public <K, V> List<Long> execute(RedisOperations<K, V> operations) {
				// The session binds one connection: the script and WAIT both use it.
				if (Boolean.TRUE.equals(redis
					.execute((RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection))) {
					throw new IllegalStateException("distlock.replication.min-replicas-acked is not supported on a "
							+ "Redis Cluster: WAIT cannot be sent on the node connection that wrote the lock. "
							+ "Set it to 0, or use a standalone or Sentinel master");
				}
				List<Long> reply = script.get();
				if (reply == null || reply.isEmpty() || reply.get(0) != 1) {
					return (reply != null) ? reply : List.of();
				}
				List<Long> acknowledged = new ArrayList<>(reply);
				acknowledged.add(waitForReplicas(redis));
				return acknowledged;
			}

		});
	}

	private long waitForReplicas(StringRedisTemplate redis) {
		Object acked = redis.execute((RedisCallback<Object>) (connection) -> LettuceWait.send(connection,
				bytes(this.replicas), bytes(this.timeout.toMillis())), true);
		if (!(acked instanceof Long count)) {
			throw new IllegalStateException("Unexpected reply of WAIT: " + acked);
		}
		return count;
	}

	private static byte[] bytes(long value) {
		return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
	}

}
