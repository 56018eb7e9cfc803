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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The replies of one worker JVM, read from its standard output on a daemon thread: lines
 * starting with {@value Replies#PREFIX} are replies, waited for by their first words;
 * other lines are log output, passed to this JVM's standard error.
 */
final class WorkerReplies {

	private final String name;

	private final LinkedBlockingQueue<String> replies = new LinkedBlockingQueue<>();

	private final List<String> unclaimed = new ArrayList<>();

	WorkerReplies(String name, InputStream output) {
		this.name = name;
		Thread reader = new Thread(() -> readAll(output), "worker-" + name + "-replies");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Waits for the next reply whose first words are the given ones; replies that do not
	 * match stay for later calls.
	 * @param words the start of the reply, such as {@code "acquired b1"}
	 * @param timeout how long to wait at most
	 * @return the reply's words, or {@code null} if none came in time
	 */
	synchronized String @Nullable [] poll(String words, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Iterator<String> it = this.unclaimed.iterator(); it.hasNext();) {
			String line = it.next();
			if (matches(line, words)) {
				it.remove();
				return line.split(" ");
			}
		}
		try {
			String line;
			while ((line = this.replies.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) != null) {
				if (matches(line, words)) {
					return line.split(" ");
				}
				this.unclaimed.add(line);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return null;
	}

	synchronized String describeUnclaimed() {
		return this.unclaimed.toString();
	}

	private static boolean matches(String line, String words) {
		return line.equals(words) || line.startsWith(words + " ");
	}

	private void readAll(InputStream output) {
		try (BufferedReader out = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
			String line;
			while ((line = out.readLine()) != null) {
				if (line.startsWith(Replies.PREFIX)) {
					this.replies.add(line.substring(Replies.PREFIX.length()));
				}
				else {
					System.err.println("[" + this.name + "] " + line);
				}
			}
		}
		catch (IOException ex) {
			// The worker is gone.
		}
	}

}
