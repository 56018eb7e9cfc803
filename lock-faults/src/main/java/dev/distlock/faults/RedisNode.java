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
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.test.util.TestSocketUtils;

/**
 * One {@code redis-server} on a fixed free port of {@code 127.0.0.1} that can be killed
 * with {@code SIGKILL} (or stopped with {@code SIGSTOP}) and restarted on the same port
 * with the same data directory, so that whatever its {@link Persistence} mode kept is
 * restored. ({@code RedisServerProcess} of lock-test-support persists nothing and deletes
 * its directory when stopped, so it cannot restart from a snapshot.)
 */
public final class RedisNode implements AutoCloseable {

	/** What the server writes to disk. */
	public enum Persistence {

		/** Nothing: a restart comes back empty. */
		NONE("--save", "", "--appendonly", "no"),

		/**
		 * Only the snapshots taken by {@link RedisNode#save()}: a restart restores the
		 * last one.
		 */
		RDB("--save", "", "--appendonly", "no", "--dbfilename", "dump.rdb"),

		/** Append-only file, fsync after every write. */
		AOF_ALWAYS("--save", "", "--appendonly", "yes", "--appendfsync", "always");

		private final List<String> arguments;

		Persistence(String... arguments) {
			this.arguments = List.of(arguments);
		}

	}

	private final int port;

	private final Persistence persistence;

	private final Path directory;

	private @Nullable Process process;

	private RedisNode(int port, Persistence persistence, Path directory) {
		this.port = port;
		this.persistence = persistence;
		this.directory = directory;
	}

	/**
	 * Starts a server on a free port. A port found free can be taken before the server
	 * binds it (by another process, or as the local port of a connection): the server is
	 * then started on another, up to three times.
	 * @param persistence what it persists
	 * @return the running server
	 */
	public static RedisNode start(Persistence persistence) {
		IllegalStateException failure = null;
		for (int attempt = 0; attempt < 3; attempt++) {
			RedisNode node;
			try {
				node = new RedisNode(freePort(), persistence, Files.createTempDirectory("distlock-faults-redis-"));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			try {
				node.restart();
				return node;
			}
			catch (IllegalStateException ex) {
				node.close();
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		throw failure;
	}

	/**
	 * A free port below the kernel's range of local ports for outgoing connections
	 * ({@code /proc/sys/net/ipv4/ip_local_port_range}, else from 49152): a node keeps its
	 * port across restarts, and a port in that range can be taken, while the node is
	 * down, as the local port of any connection on the host, so that the node cannot come
	 * back.
	 */
	private static int freePort() {
		int below = 49152;
		try {
			// Not Files.readString: it reads the first byte alone of this file of size 0.
			below = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
				.get(0)
				.trim()
				.split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux: the range IANA gives such ports.
		}
		int min = 10000;
		if (below - min < 1000) {
			return TestSocketUtils.findAvailableTcpPort();
		}
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(min, below);
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				return port;
			}
			catch (IOException ex) {
				// Taken: try another.
			}
		}
		throw new IllegalStateException("No free port between " + min + " and " + below);
	}

	/**
	 * The port, the same across restarts.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Takes a snapshot now ({@code SAVE}); with {@link Persistence#RDB} a restart
	 * restores it.
	 */
	public void save() {
		Resp.call(this.port, "SAVE");
	}

	/**
	 * Kills the server with {@code SIGKILL} and waits until it has exited. Nothing is
	 * flushed.
	 * @return {@link System#nanoTime()} once the process is gone
	 */
	public synchronized long kill() {
		Process running = this.process;
		this.process = null;
		if (running != null) {
			running.destroyForcibly();
			try {
				running.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return System.nanoTime();
	}

	/**
	 * Stops the server with {@code SIGSTOP}, returning once every thread of it stopped:
	 * its connections stay open and nothing answers, until {@link #resume()}.
	 * @return {@link System#nanoTime()} once it is stopped
	 */
	public synchronized long pause() {
		Process running = this.process;
		if (running == null) {
			throw new IllegalStateException("redis-server on " + this.port + " is not running");
		}
		ProcessSignals.stop(running, "redis-server on " + this.port);
		return System.nanoTime();
	}

	/**
	 * Continues a server stopped by {@link #pause()} ({@code SIGCONT}).
	 * @return {@link System#nanoTime()} once the signal was sent
	 */
	public synchronized long resume() {
		Process running = this.process;
		if (running != null) {
			ProcessSignals.signal(running, "CONT");
		}
		return System.nanoTime();
	}

	/**
	 * Starts the server (again) on its port and waits until it answers {@code PING}.
	 * @return {@link System#nanoTime()} of the first {@code PONG}
	 */
	public synchronized long restart() {
		if (this.process != null && this.process.isAlive()) {
			return System.nanoTime();
		}
		List<String> command = new ArrayList<>(
				List.of("redis-server", "--port", String.valueOf(this.port), "--bind", "127.0.0.1", "--protected-mode",
						"no", "--daemonize", "no", "--dir", this.directory.toString(), "--loglevel", "warning"));
		command.addAll(this.persistence.arguments);
		try {
			this.process = ProcessReaper.register(new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis.log").toFile())
				.start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run redis-server", ex);
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!answersAs(this.process)) {
			if (!this.process.isAlive() || System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("redis-server on " + this.port + " did not come up, see "
						+ this.directory.resolve("redis.log"));
			}
			Pause.millis(5);
		}
		return System.nanoTime();
	}

	/**
	 * Whether the server on the port is the process started: another process on the host
	 * may have taken the port while the node was down, and answer for it.
	 */
	private boolean answersAs(Process started) {
		try {
			Object info = Resp.call(this.port, "INFO", "server");
			// INFO answers while an append-only file is still loading; PING does not.
			return info instanceof String text && text.contains("process_id:" + started.pid() + "\r\n")
					&& "PONG".equals(Resp.call(this.port, "PING"));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	@Override
	public void close() {
		kill();
		try (Stream<Path> paths = Files.walk(this.directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Best effort: it is in the temporary folder.
		}
	}

	@Override
	public String toString() {
		return "redis-server 127.0.0.1:" + this.port + " (" + this.persistence + ")";
	}

}
