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
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started with this JVM's class path, talked to by lines: commands on its standard
 * input, replies on its standard output as lines starting with {@link #REPLY}; anything
 * else it prints is passed through to the standard error of this process.
 */
final class ForkedJvm implements AutoCloseable {

	static final String REPLY = "@bench ";

	private final Process process;

	private final BufferedReader out;

	private final PrintWriter in;

	private ForkedJvm(Process process) {
		this.process = process;
		this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
	}

	static ForkedJvm start(String heap, Class<?> mainClass, String... args) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xms" + heap);
		command.add("-Xmx" + heap);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(mainClass.getName());
		command.addAll(List.of(args));
		try {
			return new ForkedJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + command, ex);
		}
	}

	void send(String line) {
		this.in.println(line);
	}

	/**
	 * Waits for the next reply.
	 * @return the reply without its prefix
	 * @throws IllegalStateException if the JVM exits first or replies with an error
	 */
	String reply() {
		try {
			String line;
			while ((line = this.out.readLine()) != null) {
				if (line.startsWith(REPLY)) {
					String reply = line.substring(REPLY.length());
					if (reply.startsWith("ERROR")) {
						throw new IllegalStateException("Forked JVM failed: " + reply);
					}
					return reply;
				}
				System.err.println(line);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		throw new IllegalStateException("Forked JVM exited with " + waitFor() + " before replying");
	}

	private int waitFor() {
		try {
			return this.process.waitFor(30, TimeUnit.SECONDS) ? this.process.exitValue() : -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	@Override
	public void close() {
		this.in.close();
		if (waitFor() == -1) {
			this.process.destroyForcibly();
		}
	}

	/**
	 * Prints a reply from inside a forked JVM.
	 * @param reply the reply
	 */
	static void reply(String reply) {
		System.out.println(REPLY + reply);
		System.out.flush();
	}

}
