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

package dev.distlock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.jspecify.annotations.Nullable;

/**
 * A minimal RESP client for the test side: one short-lived socket per command, so that it
 * never shares the reconnect state of the client under test.
 */
public final class Resp {

	private static final int TIMEOUT_MILLIS = 2000;

	private Resp() {
	}

	/**
	 * Sends one command to {@code 127.0.0.1:port} and reads its reply.
	 * @param port the Redis port
	 * @param args the command and its arguments
	 * @return a {@code String}, {@code Long}, {@code List} or {@code null}
	 * @throws UncheckedIOException if Redis cannot be reached
	 * @throws IllegalStateException if Redis replies with an error
	 */
	public static @Nullable Object call(int port, String... args) {
		try (RespConnection connection = connect(port)) {
			return connection.call(args);
		}
	}

	/**
	 * Opens a connection for many commands, such as a worker thread's writes to its
	 * resource.
	 * @param port the Redis port
	 * @return the connection, to close
	 */
	public static RespConnection connect(int port) {
		try {
			Socket socket = new Socket();
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			socket.setTcpNoDelay(true);
			return new RespConnection(socket);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Redis on port " + port + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Whether Redis answers {@code PING} on the port.
	 * @param port the port
	 * @return {@code true} on {@code PONG}
	 */
	public static boolean answers(int port) {
		try {
			return "PONG".equals(call(port, "PING"));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Sends a command whose reply is an integer.
	 * @param port the port
	 * @param args the command
	 * @return the integer, {@code null} for a nil reply
	 */
	public static @Nullable Long number(int port, String... args) {
		try (RespConnection connection = connect(port)) {
			return connection.number(args);
		}
	}

}
