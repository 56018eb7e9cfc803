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

package dev.distlock.test.redis;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A Redis server provided from outside, for example through
 * {@code DISTLOCK_TEST_REDIS_URL}. Its lifecycle belongs to whoever runs it: it cannot be
 * stopped or started from here, and closing it does nothing.
 *
 * @param host the host
 * @param port the port
 */
record ExternalRedisServer(String host, int port) implements RedisTestServer {

	private static final int DEFAULT_PORT = 6379;

	/**
	 * Parses a URL of the form {@code redis://host:port} (port 6379 if omitted).
	 * @param url the URL
	 * @return the server it designates
	 * @throws IllegalArgumentException if the URL is not of that form; credentials, a
	 * database index, TLS ({@code rediss}) and query parameters are not supported
	 */
	static ExternalRedisServer fromUrl(String url) {
		URI uri;
		try {
			uri = new URI(url.trim());
		}
		catch (URISyntaxException ex) {
			throw invalid(url, ex.getMessage());
		}
		if (!"redis".equalsIgnoreCase(uri.getScheme())) {
			throw invalid(url, "the scheme must be redis");
		}
		if (uri.getHost() == null) {
			throw invalid(url, "no host");
		}
		if (uri.getRawUserInfo() != null) {
			throw invalid(url, "credentials are not supported");
		}
		String path = uri.getRawPath();
		if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
				|| uri.getRawFragment() != null) {
			throw invalid(url, "a database index, query or fragment is not supported");
		}
		return new ExternalRedisServer(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : DEFAULT_PORT);
	}

	private static IllegalArgumentException invalid(String url, String reason) {
		return new IllegalArgumentException(
				"Invalid Redis URL '" + url + "' (" + reason + "); expected redis://host:port");
	}

	@Override
	public boolean isStoppable() {
		return false;
	}

	@Override
	public void stop() {
		throw notStoppable();
	}

	@Override
	public void start() {
		throw notStoppable();
	}

	@Override
	public void close() {
	}

	private UnsupportedOperationException notStoppable() {
		return new UnsupportedOperationException(
				"The external Redis server at " + url() + " cannot be stopped or started; use "
						+ "RedisTestServers.startDedicated() for a server the test owns");
	}

}
