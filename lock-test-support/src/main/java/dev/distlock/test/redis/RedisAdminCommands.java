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

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Sends one administrative command to a Redis server over a new connection and reads its
 * reply, without a client library: the deployments of this package set up clusters and
 * sentinels with it, and tests read {@code INFO} or {@code CLUSTER INFO} of single nodes
 * with it. Replies come back as {@link String} (simple and bulk strings), {@link Long},
 * {@link List} or {@code null}; an error reply is thrown. <pre class="code">
 * String info = (String) RedisAdminCommands.call(node, "INFO", "commandstats");
 * </pre>
 */
public final class RedisAdminCommands {

	private static final int TIMEOUT_MILLIS = 5_000;

	private RedisAdminCommands() {
	}

	/**
	 * Sends a command and returns its reply.
	 * @param server the server to ask
	 * @param arguments the command and its arguments
	 * @return the reply
	 * @throws IllegalStateException if the server answers with an error or cannot be
	 * reached
	 */
	public static @Nullable Object call(RedisTestServer server, String... arguments) {
		return call(server.host(), server.port(), arguments);
	}

	/**
	 * Sends a command and returns its reply as text.
	 * @param server the server to ask
	 * @param arguments the command and its arguments
	 * @return the reply, as a string
	 * @throws IllegalStateException if the server answers with an error or cannot be
	 * reached
	 */
	public static String text(RedisTestServer server, String... arguments) {
		return String.valueOf(call(server, arguments));
	}

	/**
	 * Sends a command to the server at a host and port and returns its reply.
	 * @param host the host
	 * @param port the port
	 * @param arguments the command and its arguments
	 * @return the reply
	 * @throws IllegalStateException if the server answers with an error or cannot be
	 * reached
	 */
	public static @Nullable Object call(String host, int port, String... arguments) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write(encode(arguments));
			out.flush();
			return read(new BufferedInputStream(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					"Could not send " + arguments[0] + " to " + host + ":" + port + ": " + ex.getMessage(), ex);
		}
	}

	private static byte[] encode(String... arguments) {
		StringBuilder command = new StringBuilder("*").append(arguments.length).append("\r\n");
		for (String argument : arguments) {
			byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
			command.append('$').append(bytes.length).append("\r\n").append(argument).append("\r\n");
		}
		return command.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static @Nullable Object read(InputStream in) throws IOException {
		int type = in.read();
		String line = line(in);
		return switch (type) {
			case '+' -> line;
			case '-' -> throw new IllegalStateException(line);
			case ':' -> Long.parseLong(line);
			case '$' -> bulk(in, Integer.parseInt(line));
			case '*' -> array(in, Integer.parseInt(line));
			default -> throw new IOException("Unexpected reply type '" + (char) type + "'" + line);
		};
	}

	private static @Nullable String bulk(InputStream in, int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = in.readNBytes(length + 2);
		return new String(bytes, 0, length, StandardCharsets.UTF_8);
	}

	private static @Nullable List<@Nullable Object> array(InputStream in, int length) throws IOException {
		if (length < 0) {
			return null;
		}
		List<@Nullable Object> elements = new ArrayList<>(length);
		for (int i = 0; i < length; i++) {
			elements.add(read(in));
		}
		return elements;
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != '\n') {
			if (b == -1) {
				throw new IOException("Connection closed in the middle of a reply");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.UTF_8);
	}

}
