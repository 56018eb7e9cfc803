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
