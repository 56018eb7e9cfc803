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
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Talks to a Redis port over a plain socket: a RESP {@code PING}, or just a connection
 * attempt. Waits poll with a deadline and a short, growing back-off instead of sleeping
 * for a fixed time.
 */
final class RedisProbe {

	private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(500);

	private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private RedisProbe() {
	}

	/**
	 * Sends one {@code PING}.
	 * @param host the host
	 * @param port the port
	 * @return whether the server answered {@code +PONG}
	 */
	static boolean answersPing(String host, int port) {
		try (Socket socket = connect(host, port)) {
			socket.getOutputStream().write(PING);
			socket.getOutputStream().flush();
			return "+PONG".equals(readLine(socket.getInputStream()));
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Tries to open a connection.
	 * @param host the host
	 * @param port the port
	 * @return whether anything accepted the connection
	 */
	static boolean acceptsConnections(String host, int port) {
		try (Socket socket = connect(host, port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Polls {@code PING} until the server answers.
	 * @param host the host
	 * @param port the port
	 * @param timeout how long to wait at most
	 * @param alive whether the server can still come up (a dead process cannot), checked
	 * between attempts
	 * @throws IllegalStateException if the server dies or does not answer before the
	 * deadline
	 */
	static void awaitPong(String host, int port, Duration timeout, BooleanSupplier alive) {
		long start = System.nanoTime();
		long backoff = TimeUnit.MILLISECONDS.toNanos(5);
		while (!answersPing(host, port)) {
			if (!alive.getAsBoolean()) {
				throw new IllegalStateException(
						"the server for " + host + ":" + port + " exited before answering PING");
			}
			if (System.nanoTime() - start > timeout.toNanos()) {
				throw new IllegalStateException(
						host + ":" + port + " did not answer PING within " + timeout.toMillis() + " ms");
			}
			backoff = pause(backoff);
		}
	}

	/**
	 * Polls until the port refuses connections.
	 * @param host the host
	 * @param port the port
	 * @param timeout how long to wait at most
	 * @throws IllegalStateException if the port still accepts connections at the deadline
	 */
	static void awaitRefused(String host, int port, Duration timeout) {
		long start = System.nanoTime();
		long backoff = TimeUnit.MILLISECONDS.toNanos(5);
		while (acceptsConnections(host, port)) {
			if (System.nanoTime() - start > timeout.toNanos()) {
				throw new IllegalStateException(
						host + ":" + port + " still accepts connections after " + timeout.toMillis() + " ms");
			}
			backoff = pause(backoff);
		}
	}

	private static Socket connect(String host, int port) throws IOException {
		Socket socket = new Socket();
		try {
			int timeoutMillis = (int) ATTEMPT_TIMEOUT.toMillis();
			socket.connect(new InetSocketAddress(host, port), timeoutMillis);
			socket.setSoTimeout(timeoutMillis);
			return socket;
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
	}

	private static String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int b;
		while ((b = in.read()) != -1 && b != '\n' && line.length() < 256) {
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	private static long pause(long backoffNanos) {
		try {
			TimeUnit.NANOSECONDS.sleep(backoffNanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for Redis", ex);
		}
		return Math.min(backoffNanos * 2, MAX_BACKOFF_NANOS);
	}

}
