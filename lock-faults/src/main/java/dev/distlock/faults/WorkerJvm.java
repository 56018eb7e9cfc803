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
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The parent's side of a {@link WorkerMain} JVM started with this JVM's class path: sends
 * commands, waits for replies with a timeout, and pauses ({@code SIGSTOP}, returning once
 * every thread has stopped), continues ({@code SIGCONT}) or kills ({@code SIGKILL}) it.
 * The JVM is killed when closed, and when this JVM exits.
 */
public final class WorkerJvm implements AutoCloseable {

	private final String name;

	private final Process process;

	private final PrintWriter commands;

	private final WorkerReplies replies;

	private WorkerJvm(String name, Process process) {
		this.name = name;
		this.process = process;
		this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
		this.replies = new WorkerReplies(name, process.getInputStream());
	}

	/**
	 * Starts a worker and waits until its application is ready.
	 * @param name the worker's name in messages
	 * @param properties the application's {@code name=value} properties
	 * @return the ready worker
	 */
	public static WorkerJvm start(String name, List<String> properties) {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms64m", "-Xmx128m",
						"-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+UseSerialGC", "-cp",
						System.getProperty("java.class.path"), WorkerMain.class.getName()));
		command.addAll(properties);
		try {
			Process process = ProcessReaper
				.register(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
			WorkerJvm worker = new WorkerJvm(name, process);
			worker.await("ready", Duration.ofSeconds(30));
			return worker;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start worker " + name, ex);
		}
	}

	/**
	 * Sends one command line.
	 * @param line the command
	 */
	public void send(String line) {
		this.commands.println(line);
	}

	/**
	 * Waits for the next reply whose first words are the given ones (such as
	 * {@code "acquired b1"}); replies that do not match stay for later calls.
	 * @param prefix the first words of the reply
	 * @param timeout how long to wait at most
	 * @return the reply's words
	 * @throws IllegalStateException if no such reply comes in time
	 */
	public String[] await(String prefix, Duration timeout) {
		String[] reply = poll(prefix, timeout);
		if (reply == null) {
			throw new IllegalStateException(this.name + ": no reply '" + prefix + "' within " + timeout.toMillis()
					+ " ms; other replies: " + this.replies.describeUnclaimed());
		}
		return reply;
	}

	/**
	 * Like {@link #await(String, Duration)}, but returns {@code null} when no such reply
	 * comes.
	 * @param words the first words of the reply
	 * @param timeout how long to wait at most
	 * @return the reply's words, or {@code null}
	 */
	public String @Nullable [] poll(String words, Duration timeout) {
		return this.replies.poll(words, timeout);
	}

	/**
	 * Stops the JVM with {@code SIGSTOP} and returns only once every thread of it has
	 * stopped. {@code kill} returns as soon as the signal is queued; the kernel then
	 * stops the threads one by one as each gets a CPU, and under CPU load the JVM's
	 * threads run on for milliseconds (tens of them on a loaded 2-core machine): a
	 * scenario that acted in that time (a release that hands the JVM the lock, say) would
	 * fault a JVM that is still running.
	 * @return how long after {@code kill} returned the last thread stopped
	 * @throws IllegalStateException if a thread still runs 5 s after the signal
	 */
	public Duration pause() {
		return ProcessSignals.stop(this.process, "Worker " + this.name);
	}

	/** Continues the JVM with {@code SIGCONT}. */
	public void resume() {
		ProcessSignals.signal(this.process, "CONT");
	}

	/**
	 * Kills the JVM with {@code SIGKILL} and waits until it has exited.
	 * @return {@link System#nanoTime()} once it is gone
	 */
	public long kill() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return System.nanoTime();
	}

	@Override
	public void close() {
		// SIGKILL ends a stopped process too; no SIGCONT needed.
		kill();
	}

}
