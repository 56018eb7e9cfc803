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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains a process's output on a daemon thread so the process never blocks on a full
 * pipe, keeping the last lines for error messages and logging every line at trace level.
 */
final class ProcessOutput {

	private static final Logger logger = LoggerFactory.getLogger(ProcessOutput.class);

	private static final int MAX_LINES = 100;

	private final Deque<String> lines = new ArrayDeque<>();

	private final String name;

	private final Thread reader;

	private ProcessOutput(String name, InputStream stream) {
		this.name = name;
		this.reader = new Thread(() -> readAll(stream), name + "-output");
		this.reader.setDaemon(true);
	}

	/**
	 * Starts draining the given stream until it ends.
	 * @param name name of the process, used for the thread name and log lines
	 * @param stream the process's (merged) output
	 * @return the buffer collecting the output
	 */
	static ProcessOutput drain(String name, InputStream stream) {
		ProcessOutput output = new ProcessOutput(name, stream);
		output.reader.start();
		return output;
	}

	/**
	 * Waits a bounded time for the stream to end, so that the output of a process that
	 * has exited is complete.
	 * @param timeout how long to wait at most
	 */
	void awaitEnd(Duration timeout) {
		try {
			this.reader.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The last lines seen so far, formatted to be appended to an exception message.
	 * @return the captured output, or a note that there was none
	 */
	String describe() {
		String text = text();
		return text.isEmpty() ? " (no output from " + this.name + ")"
				: System.lineSeparator() + "Output of " + this.name + ":" + System.lineSeparator() + text;
	}

	/**
	 * The last lines seen so far.
	 * @return the captured lines separated by line breaks
	 */
	synchronized String text() {
		return String.join(System.lineSeparator(), this.lines);
	}

	private void readAll(InputStream stream) {
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				logger.trace("[{}] {}", this.name, line);
				append(line);
			}
		}
		catch (IOException ex) {
			// The process went away and closed its end of the pipe; nothing left to
			// drain.
		}
	}

	private synchronized void append(String line) {
		if (this.lines.size() == MAX_LINES) {
			this.lines.removeFirst();
		}
		this.lines.addLast(line);
	}

}
