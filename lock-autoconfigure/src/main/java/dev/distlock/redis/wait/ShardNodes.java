package dev.distlock.redis.wait;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

/**
 * Which cluster node confirmed each sharded subscription, so that the subscriptions of a
 * node are known lost when the connection to it drops: Lettuce names a node by its URI,
 * and a dropped connection by its remote socket address, given as a host name or an IP
 * address.
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
		if (address instanceof InetSocketAddress remote) {
			this.nodes.forEach((channel, node) -> {
				if (isAt(node.getUri(), remote) && this.nodes.remove(channel, node)) {
					dropped.add(channel);
				}
			});
		}
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

	private static boolean isAt(RedisURI uri, InetSocketAddress remote) {
		return uri.getPort() == remote.getPort() && (uri.getHost().equals(remote.getHostString())
				|| remote.getAddress() != null && uri.getHost().equals(remote.getAddress().getHostAddress()));
	}

}
