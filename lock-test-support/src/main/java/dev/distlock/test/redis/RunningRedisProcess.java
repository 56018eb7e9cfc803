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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * One launched {@code redis-server} operating-system process, its drained output and its
 * private working directory, from launch until it is killed. {@link RedisServerProcess}
 * creates one per {@code start()}.
 */
final class RunningRedisProcess {

	private final Process process;

	private final ProcessOutput output;

	private final Path directory;

	private RunningRedisProcess(Process process, ProcessOutput output, Path directory) {
		this.process = process;
		this.output = output;
		this.directory = directory;
	}

	/**
	 * Launches {@code redis-server} without persistence on {@code 127.0.0.1} and waits
	 * until it answers PING.
	 * @param binary the executable
	 * @param port the port to listen on
	 * @param configFile the text of a configuration file to start from, written to the
	 * working directory and named first on the command line (a Sentinel needs one to
	 * write its state to), or {@code null} for none
	 * @param configuration further {@code redis-server} arguments, such as
	 * {@code "--rename-command", "TIME", ""}
	 * @param timeout how long to wait for PONG
	 * @return the running process
	 * @throws PortInUseException if the process could not bind the port
	 * @throws IllegalStateException if it cannot be run, exits or does not answer in
	 * time; includes its output
	 */
	static RunningRedisProcess launch(Path binary, int port, @Nullable String configFile, List<String> configuration,
			Duration timeout) {
		Path directory = createDirectory(port);
		List<String> command = new ArrayList<>(List.of(binary.toString()));
		if (configFile != null) {
			command.add(writeConfigFile(directory, configFile).toString());
		}
		command.addAll(List.of("--port", String.valueOf(port), "--bind", LocalPorts.LOOPBACK, "--save", "",
				"--appendonly", "no", "--protected-mode", "no", "--daemonize", "no", "--dir", directory.toString()));
		command.addAll(configuration);
		Process process;
		try {
			process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			deleteDirectory(directory);
			throw new IllegalStateException("Could not run " + binary + ": " + ex.getMessage(), ex);
		}
		ProcessOutput output = ProcessOutput.drain("redis-server-" + port, process.getInputStream());
		RunningRedisProcess running = new RunningRedisProcess(process, output, directory);
		try {
			RedisProbe.awaitPong(LocalPorts.LOOPBACK, port, timeout, process::isAlive);
			return running;
		}
		catch (RuntimeException ex) {
			if (!running.isAlive()) {
				// Read what an exited process printed first: destroying it closes its
				// output stream.
				output.awaitEnd(Duration.ofSeconds(2));
			}
			running.kill(Duration.ofSeconds(5));
			output.awaitEnd(Duration.ofSeconds(1));
			String message = "Could not start " + binary + " on " + LocalPorts.LOOPBACK + ":" + port + ": "
					+ ex.getMessage() + output.describe();
			if (output.text().contains("Address already in use")) {
				throw new PortInUseException(message);
			}
			throw new IllegalStateException(message, ex);
		}
	}

	/**
	 * Whether the process is still running.
	 * @return {@code true} until it exits
	 */
	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Terminates the process (forcibly if it ignores the polite signal), waits for it to
	 * exit and deletes its working directory.
	 * @param timeout how long to wait after each of the two signals
	 * @throws IllegalStateException if the process is still alive afterwards or the
	 * thread is interrupted
	 */
	void kill(Duration timeout) {
		kill(false, timeout);
	}

	/**
	 * Kills the process at once ({@code SIGKILL}), as a crash would: it cannot flush
	 * anything to its replicas or clients first. Waits for it to exit and deletes its
	 * working directory.
	 * @param timeout how long to wait for the exit
	 * @throws IllegalStateException if the process is still alive afterwards or the
	 * thread is interrupted
	 */
	void crash(Duration timeout) {
		kill(true, timeout);
	}

	private void kill(boolean forcibly, Duration timeout) {
		if (forcibly) {
			this.process.destroyForcibly();
		}
		else {
			this.process.destroy();
		}
		try {
			if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly();
				if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException(this + " did not exit");
				}
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while stopping " + this, ex);
		}
		deleteDirectory(this.directory);
	}

	private static Path createDirectory(int port) {
		try {
			return Files.createTempDirectory("distlock-redis-" + port + "-");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not create a working directory for redis-server", ex);
		}
	}

	private static Path writeConfigFile(Path directory, String text) {
		try {
			return Files.writeString(directory.resolve("redis.conf"), text);
		}
		catch (IOException ex) {
			deleteDirectory(directory);
			throw new IllegalStateException("Could not write a configuration file for redis-server", ex);
		}
	}

	private static void deleteDirectory(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Best effort: the directory is in the temporary folder and empty since
			// nothing is persisted.
		}
	}

	@Override
	public String toString() {
		return "redis-server (pid " + this.process.pid() + ")";
	}

	/**
	 * Thrown when the port a server should listen on is taken by something else.
	 */
	static final class PortInUseException extends IllegalStateException {

		PortInUseException(String message) {
			super(message);
		}

	}

}
