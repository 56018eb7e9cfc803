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

package dev.distlock.redlock;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Reads the server a RedLock node's Redis URL names, to tell two nodes on the same server
 * apart from two servers, and to name a node in messages without its password.
 */
public final class RedLockNodeAddresses {

	private static final int DEFAULT_PORT = 6379;

	private RedLockNodeAddresses() {
	}

	/**
	 * Returns {@code host:port} of the server a Redis URL names, the host in lower case
	 * and the port 6379 if the URL gives none.
	 * @param url a URL such as {@code redis://user:password@host:6379/0}
	 * @return the server, or null if the text is not a {@code redis://} or
	 * {@code rediss://} URL with a host
	 */
	public static @Nullable String server(String url) {
		try {
			URI uri = new URI(url.trim());
			String scheme = uri.getScheme();
			if (scheme == null || !(scheme.equalsIgnoreCase("redis") || scheme.equalsIgnoreCase("rediss"))
					|| uri.getHost() == null) {
				return null;
			}
			int port = (uri.getPort() != -1) ? uri.getPort() : DEFAULT_PORT;
			return uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

}
