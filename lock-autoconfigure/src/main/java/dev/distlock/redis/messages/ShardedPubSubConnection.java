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

package dev.distlock.redis.messages;

import java.net.SocketAddress;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.event.connection.DisconnectedEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The one Lettuce cluster pub/sub connection of a {@link ShardedReleaseSubscription},
 * opened at its first subscription, which sends each {@code SSUBSCRIBE} and
 * {@code SUNSUBSCRIBE} to the master of the channel's slot as the client's topology knows
 * it; and the topology itself, refreshed on demand. While open, it watches the client's
 * connections and reports each one that drops. Opening the pub/sub connection waits for
 * Redis under a {@link ReentrantLock}, not a monitor, so that it never pins a virtual
 * thread's carrier on JDK 21 to 23.
 */
final class ShardedPubSubConnection {

	private final LettuceConnectionFactory connectionFactory;

	private final RedisClusterPubSubAdapter<String, String> listener;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private @Nullable Disposable disconnects;

	/**
	 * Creates a connection, closed until {@link #open(Consumer)}.
	 * @param connectionFactory a cluster-aware Lettuce connection factory
	 * @param listener the listener of the connection
	 */
	ShardedPubSubConnection(LettuceConnectionFactory connectionFactory,
			RedisClusterPubSubAdapter<String, String> listener) {
		this.connectionFactory = connectionFactory;
		this.listener = listener;
	}

	/**
	 * Starts watching the client's connections; the pub/sub connection itself is
	 * connected by the first subscription.
	 * @param dropped told the remote address of each connection of the client that drops
	 */
	void open(Consumer<SocketAddress> dropped) {
		this.lock.lock();
		try {
			this.disconnects = client().getResources().eventBus().get().subscribe((event) -> {
				if (event instanceof DisconnectedEvent disconnected) {
					dropped.accept(disconnected.remoteAddress());
				}
			});
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Subscribes to a sharded channel on its slot's master.
	 * @param channel the channel
	 * @param onFailure run if the master refuses or the command times out
	 */
	void ssubscribe(String channel, Runnable onFailure) {
		StatefulRedisClusterPubSubConnection<String, String> pubSub = connection();
		if (pubSub != null) {
			pubSub.async().ssubscribe(channel).whenComplete((done, failure) -> {
				if (failure != null) {
					onFailure.run();
				}
			});
		}
	}

	/**
	 * Unsubscribes from a sharded channel.
	 * @param channel the channel
	 */
	void sunsubscribe(String channel) {
		StatefulRedisClusterPubSubConnection<String, String> pubSub = connection();
		if (pubSub != null) {
			pubSub.async().sunsubscribe(channel);
		}
	}

	/** Reads the cluster's topology again, so that a promoted master is known. */
	void refreshTopology() {
		client().refreshPartitions();
	}

	/**
	 * Returns whether the pub/sub connection is open; it is opened by the first
	 * subscription. Never waits for a connection being opened (health asks this).
	 * @return whether it is connected
	 */
	boolean isConnected() {
		StatefulRedisClusterPubSubConnection<String, String> open = this.connection;
		return open != null && open.isOpen();
	}

	/** Stops watching and closes the pub/sub connection; {@link #open} opens it again. */
	void close() {
		this.lock.lock();
		try {
			if (this.disconnects != null) {
				this.disconnects.dispose();
				this.disconnects = null;
			}
			if (this.connection != null) {
				this.connection.closeAsync();
				this.connection = null;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection() {
		this.lock.lock();
		try {
			if (this.connection == null && this.disconnects != null) {
				StatefulRedisClusterPubSubConnection<String, String> pubSub = client().connectPubSub();
				pubSub.addListener(this.listener);
				this.connection = pubSub;
			}
			return this.connection;
		}
		finally {
			this.lock.unlock();
		}
	}

	private RedisClusterClient client() {
		return (RedisClusterClient) this.connectionFactory.getRequiredNativeClient();
	}

}
