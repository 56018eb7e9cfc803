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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.monitor.ShardedSubscriptionState;
import dev.distlock.redis.protocol.RedisAddress;

/**
 * Subscribes a client to its sharded release channels on a Redis Cluster (Redis 7.0+),
 * through one Lettuce cluster pub/sub connection ({@link ShardedPubSubConnection}), which
 * sends each {@code SSUBSCRIBE} to the master of the channel's slot: a release there
 * {@code SPUBLISH}es, and the message goes no further than that master's shard. A slot is
 * subscribed while {@link SlotSubscriptions} wants it. A subscription is lost when Redis
 * ends it (a slot move or a failover) or the connection to its node drops
 * ({@link ShardNodes}); the {@link ShardedSubscriber} then subscribes it again on a fresh
 * topology until the slot's master confirms it, and waiters retry meanwhile. Nothing is
 * subscribed after the client stops. Only Lettuce has cluster pub/sub: with Jedis the
 * client keeps its one classic channel, whose messages the cluster broadcasts to every
 * node. Starting and stopping hold a {@link ReentrantLock}, not a monitor, as they may
 * wait for the connection being opened: no virtual thread pins its carrier on JDK 21 to
 * 23.
 */
public final class ShardedReleaseSubscription implements SmartLifecycle {

	/**
	 * How long a wanted slot may stay unsubscribed before the subscription is unhealthy:
	 * the time a client must take to recover from a failover.
	 */
	private static final Duration OVERDUE = Duration.ofSeconds(5);

	private final SlotSubscriptions slots;

	private final ShardNodes nodes = new ShardNodes();

	private final ShardedPubSubConnection connection;

	private final ShardedSubscriber subscriber;

	private final ReentrantLock lifecycle = new ReentrantLock();

	/**
	 * Creates the subscription; it starts with the client.
	 * @param connectionFactory a cluster-aware Lettuce connection factory
	 * @param slots the slots to subscribe
	 * @param waiter the waiter to wake
	 */
	public ShardedReleaseSubscription(LettuceConnectionFactory connectionFactory, SlotSubscriptions slots,
			ReleaseMessageWaiter waiter) {
		this.slots = slots;
		this.connection = new ShardedPubSubConnection(connectionFactory, new MessageListener(waiter));
		this.subscriber = new ShardedSubscriber(slots, this.connection, RedisAddress.of(connectionFactory));
	}

	/**
	 * Returns whether a factory can subscribe to sharded channels: Lettuce on a cluster.
	 * @param factory the connection factory
	 * @return whether it is a cluster-aware {@link LettuceConnectionFactory}
	 */
	public static boolean supports(RedisConnectionFactory factory) {
		return factory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
	}

	/**
	 * Returns the slots subscribed now, those waited on but not subscribed yet, and
	 * whether the connection is open.
	 * @return the state
	 */
	public ShardedSubscriptionState state() {
		return this.slots.state(isRunning(), this.connection.isConnected(), OVERDUE.toNanos());
	}

	@Override
	public void start() {
		this.lifecycle.lock();
		try {
			if (isRunning()) {
				return;
			}
			this.subscriber.start();
			this.connection.open(this::dropped);
		}
		finally {
			this.lifecycle.unlock();
		}
		this.slots.subscriber(this.subscriber::change);
		if (!this.slots.unconfirmed().isEmpty()) {
			// Started again while callers wait.
			this.subscriber.resubscribeNow();
		}
	}

	@Override
	public void stop() {
		this.slots.subscriber(SlotSubscriptions.Subscriber.NONE);
		this.lifecycle.lock();
		try {
			this.subscriber.stop();
			this.connection.close();
		}
		finally {
			this.lifecycle.unlock();
		}
		this.nodes.clear().forEach(this.slots::lost);
	}

	@Override
	public boolean isRunning() {
		return this.subscriber.isRunning();
	}

	private void confirmed(String channel, RedisClusterNode node) {
		if (isRunning()) {
			this.nodes.confirmed(channel, node);
			this.slots.confirmed(channel);
		}
	}

	private void unsubscribed(String channel, RedisClusterNode node) {
		this.nodes.unsubscribed(channel, node);
		lost(List.of(channel));
	}

	private void dropped(SocketAddress address) {
		lost(this.nodes.droppedAt(address));
	}

	private void lost(List<String> channels) {
		boolean wanted = false;
		for (String channel : channels) {
			wanted |= this.slots.lost(channel);
		}
		if (wanted) {
			this.subscriber.resubscribeNow();
		}
	}

	/**
	 * Listens on the cluster pub/sub connection: hands each sharded message to the
	 * {@link ReleaseMessageWaiter}, and records each subscription a node confirms and
	 * each one it ends (Redis ends a sharded subscription when its slot moves or its
	 * master becomes a replica). Called on Lettuce's threads, so nothing here blocks.
	 */
	private final class MessageListener extends RedisClusterPubSubAdapter<String, String> {

		private final ReleaseMessageWaiter waiter;

		MessageListener(ReleaseMessageWaiter waiter) {
			this.waiter = waiter;
		}

		@Override
		public void smessage(RedisClusterNode node, String channel, String message) {
			this.waiter.deliver(message);
		}

		@Override
		public void ssubscribed(RedisClusterNode node, String channel, long count) {
			ShardedReleaseSubscription.this.confirmed(channel, node);
		}

		@Override
		public void sunsubscribed(RedisClusterNode node, String channel, long count) {
			ShardedReleaseSubscription.this.unsubscribed(channel, node);
		}

	}

}
