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

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Checks TCP ports on the loopback interface. Free ports are found with Spring's
 * {@link org.springframework.test.util.TestSocketUtils#findAvailableTcpPort()}, which
 * checks them on {@code localhost}; this checks the address our servers actually bind,
 * just before they bind it.
 */
final class LocalPorts {

	/** Loopback address every process started by this module binds to. */
	static final String LOOPBACK = "127.0.0.1";

	private LocalPorts() {
	}

	/**
	 * Whether a server could bind the given port on the loopback interface right now.
	 * @param port the port to check
	 * @return {@code true} if binding succeeds, {@code false} if something else holds the
	 * port
	 */
	static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(LOOPBACK, port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
