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
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Redis server with a native conditional delete, played by an in-process proxy on a
 * free port of {@code 127.0.0.1} in front of a real server that has none (Redis 7): it
 * reads each request and sends it on unchanged, except the conditional delete of the
 * {@linkplain Dialect dialect} it plays, which it sends as a script with the same effect
 * ({@code DELEX key IFEQ value} of Redis 8.4, {@code DELIFEQ key value} of Valkey 9).
 * Replies come back unchanged, in order. It counts the requests it saw by command name,
 * and the {@code EVALSHA} requests by script digest, so that a test can tell which
 * command a release sent. The dialect can change at runtime, for a server that stops
 * running the command (a failover to an older node).
 */
public final class ConditionalDeleteProxy implements AutoCloseable {

	/** Which native conditional delete the proxy's server has. */
	public enum Dialect {

		/** Redis 8.4: {@code DELEX key IFEQ value}. */
		REDIS_DELEX,

		/** Valkey 9: {@code DELIFEQ key value}. */
		VALKEY_DELIFEQ,

		/** None: every request goes to the server as sent (which refuses both). */
		NONE,

		/**
		 * A broken server, for controls: {@code DELEX key IFEQ value} deletes the key
		 * whatever it holds.
		 */
		DELEX_IGNORING_VALUE,

		/**
		 * A broken server without a native command, for controls: the script named by
		 * {@link #scriptIgnoringValue(String)} (distlock's {@code delete-if-equal.lua})
		 * runs as a {@code DEL} of its one key, whatever the key holds.
		 */
		SCRIPT_DELETE_IGNORING_VALUE

	}

	private static final String COMPARE_AND_DELETE = "if redis.call('get', KEYS[1]) == ARGV[1] then "
			+ "return redis.call('del', KEYS[1]) end return 0";

	private final ServerSocket server;

	private final int targetPort;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Map<String, AtomicLong> commands = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> scripts = new ConcurrentHashMap<>();

	private volatile Dialect dialect;

	/** The digest of the script run as a {@code DEL} (SCRIPT_DELETE_IGNORING_VALUE). */
	private volatile String scriptIgnoringValue = "";

	private ConditionalDeleteProxy(ServerSocket server, int targetPort, Dialect dialect) {
		this.server = server;
		this.targetPort = targetPort;
		this.dialect = dialect;
	}

	/**
	 * Starts a proxy to the given port of {@code 127.0.0.1}.
	 * @param targetPort the port of the real server
	 * @param dialect the conditional delete the proxy's server has
	 * @return the running proxy
	 */
	public static ConditionalDeleteProxy start(int targetPort, Dialect dialect) {
		try {
			ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			ConditionalDeleteProxy proxy = new ConditionalDeleteProxy(server, targetPort, dialect);
			Thread acceptor = new Thread(proxy::acceptAll, "conditional-delete-proxy-" + server.getLocalPort());
			acceptor.setDaemon(true);
			acceptor.start();
			return proxy;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Returns the port that clients connect to.
	 * @return the proxy's port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Changes the conditional delete that the server has, for the requests read from now.
	 * @param dialect the new dialect
	 */
	public void dialect(Dialect dialect) {
		this.dialect = dialect;
	}

	/**
	 * Names the script that {@link Dialect#SCRIPT_DELETE_IGNORING_VALUE} runs as a
	 * {@code DEL} of its one key.
	 * @param sha1 the script's digest, as {@code EVALSHA} sends it
	 * @return this proxy
	 */
	public ConditionalDeleteProxy scriptIgnoringValue(String sha1) {
		this.scriptIgnoringValue = sha1;
		return this;
	}

	/**
	 * Returns how many requests of a command the proxy saw, as sent by the clients.
	 * @param command the command's name, in any case
	 * @return the count
	 */
	public long count(String command) {
		AtomicLong count = this.commands.get(command.toUpperCase(Locale.ROOT));
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Returns how many {@code EVALSHA} requests of a script the proxy saw.
	 * @param sha1 the script's digest, in any case
	 * @return the count
	 */
	public long scriptCount(String sha1) {
		AtomicLong count = this.scripts.get(sha1.toLowerCase(Locale.ROOT));
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Returns the counts of every command seen since the last reset, for messages.
	 * @return the counts by command name, and by {@code EVALSHA <digest>}
	 */
	public Map<String, Long> counts() {
		Map<String, Long> counts = new TreeMap<>();
		this.commands.forEach((command, count) -> counts.put(command, count.get()));
		this.scripts.forEach((sha1, count) -> counts.put("EVALSHA " + sha1, count.get()));
		return counts;
	}

	/** Forgets the counts. */
	public void resetCounts() {
		this.commands.clear();
		this.scripts.clear();
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
	}

	private void acceptAll() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.targetPort);
				client.setTcpNoDelay(true);
				upstream.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(upstream);
				startThread("requests", () -> forwardRequests(client, upstream));
				startThread("replies", () -> forwardReplies(upstream, client));
			}
			catch (IOException ex) {
				// Closed, or a connection that failed: go on while the server socket is
				// open.
			}
		}
	}

	private void startThread(String role, Runnable work) {
		Thread thread = new Thread(work, "conditional-delete-proxy-" + port() + "-" + role);
		thread.setDaemon(true);
		thread.start();
	}

	private void forwardRequests(Socket client, Socket upstream) {
		try (InputStream in = new BufferedInputStream(client.getInputStream());
				OutputStream out = upstream.getOutputStream()) {
			while (true) {
				List<byte[]> request = readRequest(in);
				out.write(encode(translate(request)));
				if (in.available() == 0) {
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// The client or the server closed the connection.
		}
		finally {
			closeQuietly(client);
			closeQuietly(upstream);
		}
	}

	private void forwardReplies(Socket upstream, Socket client) {
		try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
			in.transferTo(out);
		}
		catch (IOException ex) {
			// The client or the server closed the connection.
		}
		finally {
			closeQuietly(client);
			closeQuietly(upstream);
		}
	}

	private List<byte[]> translate(List<byte[]> request) {
		String command = new String(request.get(0), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
		this.commands.computeIfAbsent(command, (name) -> new AtomicLong()).incrementAndGet();
		if (command.equals("EVALSHA") && request.size() > 1) {
			this.scripts
				.computeIfAbsent(new String(request.get(1), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT),
						(sha1) -> new AtomicLong())
				.incrementAndGet();
		}
		Dialect current = this.dialect;
		if (command.equals("DELEX") && request.size() == 4
				&& new String(request.get(2), StandardCharsets.UTF_8).equalsIgnoreCase("IFEQ")) {
			if (current == Dialect.REDIS_DELEX) {
				return script(COMPARE_AND_DELETE, request.get(1), request.get(3));
			}
			if (current == Dialect.DELEX_IGNORING_VALUE) {
				return List.of(bytes("DEL"), request.get(1));
			}
		}
		if (command.equals("EVALSHA") && request.size() == 5 && current == Dialect.SCRIPT_DELETE_IGNORING_VALUE
				&& new String(request.get(1), StandardCharsets.UTF_8).equalsIgnoreCase(this.scriptIgnoringValue)
				&& new String(request.get(2), StandardCharsets.UTF_8).equals("1")) {
			return List.of(bytes("DEL"), request.get(3));
		}
		if (command.equals("DELIFEQ") && request.size() == 3 && current == Dialect.VALKEY_DELIFEQ) {
			return script(COMPARE_AND_DELETE, request.get(1), request.get(2));
		}
		return request;
	}

	private static List<byte[]> script(String script, byte[] key, byte[] value) {
		return List.of(bytes("EVAL"), bytes(script), bytes("1"), key, value);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** Reads one request: an array of bulk strings, as every Redis client sends. */
	private static List<byte[]> readRequest(InputStream in) throws IOException {
		String header = readLine(in);
		if (!header.startsWith("*")) {
			throw new IOException("Not a request array: " + header);
		}
		int count = Integer.parseInt(header.substring(1));
		List<byte[]> arguments = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			String length = readLine(in);
			if (!length.startsWith("$")) {
				throw new IOException("Not a bulk string: " + length);
			}
			byte[] argument = in.readNBytes(Integer.parseInt(length.substring(1)));
			readLine(in);
			arguments.add(argument);
		}
		return arguments;
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int next = in.read();
			if (next == -1) {
				throw new EOFException();
			}
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
	}

	private static byte[] encode(List<byte[]> request) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(bytes("*" + request.size() + "\r\n"));
		for (byte[] argument : request) {
			out.writeBytes(bytes("$" + argument.length + "\r\n"));
			out.writeBytes(argument);
			out.writeBytes(bytes("\r\n"));
		}
		return out.toByteArray();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
	}

}
