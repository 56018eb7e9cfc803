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
import java.util.List;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs a lock script and, if it wrote what replicas must acknowledge (a grant, renewed
 * leases, a lock kept for its minimum hold), {@code WAIT} on the very connection that
 * sent the script, since {@code WAIT} counts the acknowledgements of that connection's
 * writes (on any other, with no writes of its own, it would return at once with every
 * connected replica). On a standalone or Sentinel master both run in one session of the
 * template, which binds one connection; on a Redis Cluster both go over the write
 * connection to the master of the slot of the script's keys
 * ({@link LettuceClusterScript}).
 */
final class AcknowledgedScript {

	private final StringRedisTemplate redis;

	private final ReplicaAcknowledgement acknowledgement;

	private final boolean cluster;

	AcknowledgedScript(StringRedisTemplate redis, ReplicaAcknowledgement acknowledgement, boolean cluster) {
		this.redis = redis;
		this.acknowledgement = acknowledgement;
		this.cluster = cluster;
	}

	/** Returns how many replicas must acknowledge, and how long they are waited for. */
	ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/**
	 * Runs the script with the keys (all in one slot on a cluster) and arguments, and
	 * {@code WAIT} if it wrote.
	 * @param wrote tells from the script's reply whether it wrote what must be
	 * acknowledged
	 * @return the reply, and how many replicas acknowledged it
	 * ({@link AcknowledgedReply#NOT_ASKED} if the script wrote nothing to acknowledge)
	 */
	<T> AcknowledgedReply<T> run(RedisScript<T> script, List<String> keys, Predicate<T> wrote, String... args) {
		if (this.cluster) {
			return this.redis
				.execute((RedisCallback<AcknowledgedReply<T>>) (connection) -> LettuceClusterScript.run(connection,
						script, this.acknowledgement.replicas(), this.acknowledgement.timeout().toMillis(), keys, wrote,
						args), true);
		}
		return this.redis.execute(new SessionCallback<AcknowledgedReply<T>>() {

			@Override
			public <K, V> AcknowledgedReply<T> execute(RedisOperations<K, V> operations) {
				// The session binds one connection: the script and WAIT both use it.
				checkNotCluster();
				T reply = AcknowledgedScript.this.redis.execute(script, keys, (Object[]) args);
				if (reply == null || !wrote.test(reply)) {
					return new AcknowledgedReply<>(reply, AcknowledgedReply.NOT_ASKED);
				}
				return new AcknowledgedReply<>(reply, waitForReplicas());
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
				(RedisCallback<Object>) (connection) -> IntegerCommand.send(connection, "WAIT",
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
