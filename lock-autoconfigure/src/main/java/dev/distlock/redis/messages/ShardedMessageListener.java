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

import java.util.function.BiConsumer;

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;

/**
 * Listens on the cluster pub/sub connection of a {@link ShardedReleaseSubscription}:
 * hands each sharded message to the {@link ReleaseMessageWaiter}, and reports each
 * subscription a node confirms and each one it ends (Redis ends a sharded subscription
 * when its slot moves or its master becomes a replica). Called on Lettuce's threads, so
 * nothing here blocks.
 */
final class ShardedMessageListener extends RedisClusterPubSubAdapter<String, String> {

	private final ReleaseMessageWaiter waiter;

	private final BiConsumer<String, RedisClusterNode> subscribed;

	private final BiConsumer<String, RedisClusterNode> unsubscribed;

	/**
	 * Creates a listener.
	 * @param waiter the waiter to wake
	 * @param subscribed told of each channel a node confirmed
	 * @param unsubscribed told of each channel a node ended
	 */
	ShardedMessageListener(ReleaseMessageWaiter waiter, BiConsumer<String, RedisClusterNode> subscribed,
			BiConsumer<String, RedisClusterNode> unsubscribed) {
		this.waiter = waiter;
		this.subscribed = subscribed;
		this.unsubscribed = unsubscribed;
	}

	@Override
	public void smessage(RedisClusterNode node, String channel, String message) {
		this.waiter.deliver(message);
	}

	@Override
	public void ssubscribed(RedisClusterNode node, String channel, long count) {
		this.subscribed.accept(channel, node);
	}

	@Override
	public void sunsubscribed(RedisClusterNode node, String channel, long count) {
		this.unsubscribed.accept(channel, node);
	}

}
