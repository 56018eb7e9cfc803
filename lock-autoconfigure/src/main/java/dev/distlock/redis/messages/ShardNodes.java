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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import dev.distlock.redis.protocol.LettuceNodeAddresses;

/**
 * Which cluster node confirmed each sharded subscription, so that the subscriptions of a
 * node are known lost when the connection to it drops ({@link LettuceNodeAddresses} tells
 * which node a dropped connection was to).
 */
final class ShardNodes {

	private final Map<String, RedisClusterNode> nodes = new ConcurrentHashMap<>();

	/**
	 * Records that a node confirmed a subscription.
	 * @param channel the channel
	 * @param node the node
	 */
	void confirmed(String channel, RedisClusterNode node) {
		this.nodes.put(channel, node);
	}

	/**
	 * Forgets a subscription that a node ended.
	 * @param channel the channel
	 * @param node the node
	 */
	void unsubscribed(String channel, RedisClusterNode node) {
		this.nodes.remove(channel, node);
	}

	/**
	 * Forgets the subscriptions confirmed by the node at an address whose connection
	 * dropped.
	 * @param address the remote address of the connection
	 * @return their channels
	 */
	List<String> droppedAt(SocketAddress address) {
		List<String> dropped = new ArrayList<>();
		this.nodes.forEach((channel, node) -> {
			if (LettuceNodeAddresses.isAt(node.getUri(), address) && this.nodes.remove(channel, node)) {
				dropped.add(channel);
			}
		});
		return dropped;
	}

	/**
	 * Forgets every subscription.
	 * @return their channels
	 */
	List<String> clear() {
		List<String> all = new ArrayList<>(this.nodes.keySet());
		all.forEach(this.nodes::remove);
		return all;
	}

}
