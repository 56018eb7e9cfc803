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

package dev.distlock.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Counts the commands Redis executes, through {@code MONITOR} on a plain socket: commands
 * sent by clients (one round trip each) by name, and commands run inside Lua scripts,
 * which {@code INFO commandstats} counts too but which cost no round trip.
 */
final class RedisMonitor implements AutoCloseable {

	/**
	 * The key under which {@link #snapshot()} counts every command run inside scripts.
	 */
	static final String SCRIPT_TOTAL = "(lua)";

	private static final String MARKER = "bench-monitor-marker-";

	private final Socket socket;

	private final Map<String, LongAdder> clientCommands = new ConcurrentHashMap<>();

	private final LongAdder scriptCommands = new LongAdder();

	private final Map<String, LongAdder> scriptCommandsByName = new ConcurrentHashMap<>();

	private final AtomicLong markersSent = new AtomicLong();

	private final AtomicLong markersSeen = new AtomicLong();

	private final Thread reader;

	RedisMonitor(String host, int port) throws IOException {
		this.socket = new Socket(host, port);
		OutputStream out = this.socket.getOutputStream();
		out.write("*1\r\n$7\r\nMONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
		BufferedReader in = new BufferedReader(
				new InputStreamReader(this.socket.getInputStream(), StandardCharsets.UTF_8));
		String ok = in.readLine();
		if (!"+OK".equals(ok)) {
			throw new IOException("MONITOR answered " + ok);
		}
		this.reader = new Thread(() -> read(in), "bench-redis-monitor");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	private void read(BufferedReader in) {
		try {
			String line;
			while ((line = in.readLine()) != null) {
				count(line);
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	private void count(String line) {
		// +1700000000.123456 [0 127.0.0.1:54321] "evalsha" "..." or [0 lua] for commands
		// of scripts
		int open = line.indexOf('[');
		int close = line.indexOf(']', open + 1);
		if (open < 0 || close < 0) {
			return;
		}
		int quote = line.indexOf('"', close);
		int endQuote = line.indexOf('"', quote + 1);
		String command = (quote < 0 || endQuote < 0) ? null
				: line.substring(quote + 1, endQuote).toLowerCase(Locale.ROOT);
		if (line.substring(open, close).endsWith(" lua")) {
			this.scriptCommands.increment();
			if (command != null) {
				this.scriptCommandsByName.computeIfAbsent(command, (name) -> new LongAdder()).increment();
			}
			return;
		}
		if (command == null) {
			return;
		}
		if (command.equals("echo") && line.contains(MARKER)) {
			this.markersSeen.incrementAndGet();
			return;
		}
		this.clientCommands.computeIfAbsent(command, (name) -> new LongAdder()).increment();
	}

	/**
	 * Waits until the monitor has read every command Redis executed before this call:
	 * sends a marker {@code ECHO} and waits until it comes through.
	 * @param redis the harness's template
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitCaughtUp(StringRedisTemplate redis) throws InterruptedException {
		long marker = this.markersSent.incrementAndGet();
		byte[] message = (MARKER + marker).getBytes(StandardCharsets.US_ASCII);
		redis.execute((RedisCallback<byte[]>) (connection) -> connection.echo(message));
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (this.markersSeen.get() < marker) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("MONITOR did not catch up within 30 s");
			}
			Thread.sleep(1);
		}
	}

	/**
	 * Returns the counts so far: client commands by name, and {@code (lua)} for commands
	 * run inside scripts.
	 * @return the counts
	 */
	Map<String, Long> snapshot() {
		Map<String, Long> counts = new TreeMap<>();
		this.clientCommands.forEach((name, count) -> counts.put(name, count.sum()));
		counts.put(SCRIPT_TOTAL, this.scriptCommands.sum());
		return counts;
	}

	/**
	 * Returns the commands run inside Lua scripts so far, by name.
	 * @return the counts
	 */
	Map<String, Long> scriptSnapshot() {
		Map<String, Long> counts = new TreeMap<>();
		this.scriptCommandsByName.forEach((name, count) -> counts.put(name, count.sum()));
		return counts;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
