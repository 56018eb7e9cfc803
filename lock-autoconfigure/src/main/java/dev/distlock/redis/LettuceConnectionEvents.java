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

package dev.distlock.redis;

import java.net.SocketAddress;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.event.connection.ReconnectAttemptEvent;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.protocol.LettuceNodeAddresses;
import dev.distlock.redis.protocol.RedisReachability;

/**
 * Tells a client's {@link RedisReachability} what Lettuce's connection events say, and
 * has the client's holds confirmed as soon as a connection is back.
 * <ul>
 * <li>A connection lost (or closed): Redis may have restarted empty in between without
 * any lock command failing, so no hold passes between threads without Redis until Redis
 * has confirmed it again.</li>
 * <li>Lettuce trying to reconnect to a node: the connection was lost, not closed on
 * purpose, and the node's locks are in doubt until it answers or a connection to it is
 * back, so that a wait that ends meanwhile ends as unavailable, not as "not acquired". On
 * a cluster, only the slots that the node serves in Lettuce's view of the cluster are in
 * doubt.</li>
 * <li>A connection (re-)established: the node's locks are no longer in doubt for that
 * reason.</li>
 * </ul>
 * Only templates on a {@link LettuceConnectionFactory} have these events; with other
 * clients, failed and stalled commands alone tell.
 */
final class LettuceConnectionEvents implements AutoCloseable {

	private final Disposable subscription;

	private LettuceConnectionEvents(Disposable subscription) {
		this.subscription = subscription;
	}

	/**
	 * Starts watching the connection events of a factory, if it is Lettuce's.
	 * @param reachability what the client knows of Redis, told of lost connections and
	 * reconnections
	 * @param confirmHolds run when a connection is lost or (re-)established: has Redis
	 * confirm the holds
	 * @return the watch, to close with the client; a no-op for other factories
	 */
	static AutoCloseable watch(@Nullable RedisConnectionFactory factory, RedisReachability reachability,
			Runnable confirmHolds) {
		if (!(factory instanceof LettuceConnectionFactory lettuce)) {
			return () -> {
			};
		}
		ClientResources resources = resources(lettuce);
		if (resources == null) {
			return () -> {
			};
		}
		NodeSlots nodes = new NodeSlots(lettuce);
		return new LettuceConnectionEvents(resources.eventBus().get().subscribe((event) -> {
			if (event instanceof DisconnectedEvent) {
				reachability.connectionLost();
				confirmHolds.run();
			}
			else if (event instanceof ReconnectAttemptEvent attempt) {
				nodes.reconnecting(attempt.remoteAddress(), reachability);
			}
			else if (event instanceof ReconnectFailedEvent failed) {
				nodes.reconnecting(failed.remoteAddress(), reachability);
			}
			else if (event instanceof ConnectionActivatedEvent activated) {
				nodes.reconnected(activated.remoteAddress(), reachability);
				confirmHolds.run();
			}
		}));
	}

	private static @Nullable ClientResources resources(LettuceConnectionFactory factory) {
		ClientResources resources = factory.getClientResources();
		if (resources != null) {
			return resources;
		}
		AbstractRedisClient client = factory.getNativeClient();
		return (client != null) ? client.getResources() : null;
	}

	@Override
	public void close() {
		this.subscription.dispose();
	}

	/**
	 * Which slots a connection's node serves: on a cluster, those of the master at the
	 * connection's remote address in Lettuce's view of the cluster, as it is when Lettuce
	 * starts reconnecting (a reconnect attempt comes only after the client connected, so
	 * the view is loaded by then), kept until a connection to that address is back; on a
	 * single server, the whole server.
	 */
	private static final class NodeSlots {

		private final LettuceConnectionFactory factory;

		private final Map<SocketAddress, BitSet> reconnecting = new ConcurrentHashMap<>();

		NodeSlots(LettuceConnectionFactory factory) {
			this.factory = factory;
		}

		void reconnecting(SocketAddress address, RedisReachability reachability) {
			if (!(this.factory.getNativeClient() instanceof RedisClusterClient cluster)) {
				reachability.reconnecting(null);
				return;
			}
			BitSet slots = new BitSet();
			for (RedisClusterNode node : cluster.getPartitions()) {
				if (LettuceNodeAddresses.isAt(node.getUri(), address)) {
					node.forEachSlot(slots::set);
				}
			}
			if (!slots.isEmpty()) {
				this.reconnecting.merge(address, slots, (known, more) -> {
					BitSet all = (BitSet) known.clone();
					all.or(more);
					return all;
				});
				reachability.reconnecting(slots);
			}
		}

		void reconnected(SocketAddress address, RedisReachability reachability) {
			if (!(this.factory.getNativeClient() instanceof RedisClusterClient)) {
				reachability.reconnected(null);
				return;
			}
			BitSet slots = this.reconnecting.remove(address);
			if (slots != null) {
				reachability.reconnected(slots);
			}
		}

	}

}
