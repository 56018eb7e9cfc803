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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Signals to a started process ({@code kill -STOP}, {@code -CONT}), for worker JVMs and
 * {@code redis-server} nodes.
 */
final class ProcessSignals {

	/** How long {@link #stop(Process, String)} waits for every thread to stop. */
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

	private ProcessSignals() {
	}

	/**
	 * Stops the process with {@code SIGSTOP} and returns only once every thread of it has
	 * stopped: the kernel stops the threads one by one as each gets a CPU, which under
	 * load takes milliseconds after {@code kill} returned.
	 * @param process the process
	 * @param name what it is, for messages
	 * @return how long after {@code kill} returned the last thread stopped
	 * @throws IllegalStateException if a thread still runs 5 s after the signal
	 */
	static Duration stop(Process process, String name) {
		signal(process, "STOP");
		long signalled = System.nanoTime();
		long deadline = signalled + STOP_TIMEOUT.toNanos();
		String running;
		while ((running = runningThreads(process, name)) != null) {
			if (System.nanoTime() - deadline >= 0) {
				throw new IllegalStateException(
						name + " (pid " + process.pid() + "): " + running + " " + STOP_TIMEOUT.toMillis()
								+ " ms after kill -STOP; a scenario must not go on " + "as if it were paused");
			}
			Pause.millis(1);
		}
		return Duration.ofNanos(System.nanoTime() - signalled);
	}

	/**
	 * Sends a signal with {@code kill}.
	 * @param process the process
	 * @param signal the signal's name, such as {@code CONT}
	 */
	static void signal(Process process, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).start();
			if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Describes the threads of the process that are not stopped, or returns {@code null}
	 * if all are: every thread's state in {@code /proc/<pid>/task/<tid>/stat} on Linux,
	 * elsewhere the process's state as {@code ps} shows it.
	 */
	private static @Nullable String runningThreads(Process process, String name) {
		Path tasks = Path.of("/proc", String.valueOf(process.pid()), "task");
		if (!Files.isDirectory(tasks)) {
			String state = processState(process, name);
			return state.startsWith("T") ? null : "process state " + state + ", not stopped,";
		}
		int running = 0;
		int threads = 0;
		try (Stream<Path> all = Files.list(tasks)) {
			for (Path task : all.toList()) {
				String stat;
				try {
					stat = Files.readString(task.resolve("stat"));
				}
				catch (IOException ex) {
					// The thread ended meanwhile.
					continue;
				}
				threads++;
				// The state follows the command name, which is in parentheses.
				char state = stat.charAt(stat.lastIndexOf(')') + 2);
				if ("TtZX".indexOf(state) < 0) {
					running++;
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the threads of " + name + " in " + tasks, ex);
		}
		return (running > 0) ? running + " of its " + threads + " threads still running" : null;
	}

	private static String processState(Process process, String name) {
		try {
			Process ps = new ProcessBuilder("ps", "-o", "stat=", "-p", String.valueOf(process.pid())).start();
			String state = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			ps.waitFor(5, TimeUnit.SECONDS);
			return state;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the state of " + name, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "unknown (interrupted)";
		}
	}

}
