package dev.distlock.redis.protocol;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.lettuce.core.RedisURI;

/**
 * Tells whether a connection of Lettuce's is to a given node: Lettuce names a node by its
 * URI, and a connection by its remote socket address, given as a host name or an IP
 * address. Loaded only with Lettuce.
 */
public final class LettuceNodeAddresses {

	private LettuceNodeAddresses() {
	}

	/**
	 * Returns whether a connection's remote address is the node's.
	 * @param uri the node, as Lettuce names it
	 * @param address the remote address of a connection
	 * @return whether the connection is to the node
	 */
	public static boolean isAt(RedisURI uri, SocketAddress address) {
		return address instanceof InetSocketAddress remote && uri.getPort() == remote.getPort()
				&& (uri.getHost().equals(remote.getHostString())
						|| remote.getAddress() != null && uri.getHost().equals(remote.getAddress().getHostAddress()));
	}

}
