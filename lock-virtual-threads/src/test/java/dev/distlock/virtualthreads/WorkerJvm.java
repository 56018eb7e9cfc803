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

package dev.distlock.virtualthreads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link VirtualThreadWorker} JVM started with this JVM's own {@code java} (JDK 25) and
 * class path: sends it commands and waits, within a timeout, for its lines. Killed when
 * closed.
 */
final class WorkerJvm implements AutoCloseable {

	private final Process process;

	private final PrintWriter commands;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private WorkerJvm(Process process) {
		this.process = process;
		this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
		Thread reader = new Thread(this::readLines, "vt-worker-output");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts a worker.
	 * @param args the worker's arguments
	 * @return the worker, starting
	 */
	static WorkerJvm start(String... args) {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
						"-XX:FlightRecorderOptions:stackdepth=512", "-cp", System.getProperty("java.class.path"),
						VirtualThreadWorker.class.getName()));
		command.addAll(List.of(args));
		try {
			return new WorkerJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the worker JVM", ex);
		}
	}

	void send(String command) {
		this.commands.println(command);
	}

	/**
	 * Waits for the worker's next line, which must start with the given word.
	 * @return the rest of the line after the word and a tab, or empty
	 */
	String await(String word, Duration timeout) throws InterruptedException {
		String line = this.lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
		if (line == null || !line.startsWith(word)) {
			throw new IllegalStateException(
					"Worker JVM: expected '" + word + "' within " + timeout.toSeconds() + " s, got "
							+ ((line != null) ? "'" + line + "'" : "nothing (alive: " + this.process.isAlive() + ")"));
		}
		return line.substring(Math.min(line.length(), word.length() + 1));
	}

	private void readLines() {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.startsWith(VirtualThreadWorker.PREFIX)) {
					this.lines.add(line.substring(VirtualThreadWorker.PREFIX.length()));
				}
			}
		}
		catch (IOException ex) {
			// The worker is gone: await reports it.
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

}
