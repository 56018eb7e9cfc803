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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;

/**
 * {@code contend <id> <lock> <key>[,<key>...] <threads> <durationMs> <leaseMs|renew> <bodyMs> <resourcePort> <file>}:
 * threads that take the {@link WorkerLock} named {@code lock} ({@code distlock},
 * {@code blog}, {@code read}, {@code write}, {@code permits:<n>}, or a naive one) in a
 * loop for a while, waiting up to 2 s each time. Each locked body records its interval; a
 * body that excludes others (an exclusive lock, a writer) adds one to the unfenced
 * counter {@code counter:<key>} and writes the fenced register {@code fenced:<key>} of
 * the {@link FencedResource}, one that shares its key (a reader, a permit) reads the
 * register; then it holds for {@code bodyMs}. When all threads are done, the holds go to
 * the file as {@link Hold#line()}s, one per key, the calls that failed to
 * {@code <file>.errors} as {@code <nanos> <exception>}, and the reply is
 * {@code contended <id> <holds> <errors>}.
 */
final class ContendCommand {

	private final LockClient client;

	private final StringRedisTemplate redis;

	ContendCommand(LockClient client, ApplicationContext context) {
		this.client = client;
		this.redis = context.getBean(StringRedisTemplate.class);
	}

	void start(String[] command) {
		String id = command[1];
		WorkerLock lock = WorkerLock.named(command[2], this.client, this.redis);
		List<String> keys = Arrays.asList(command[3].split(","));
		int threads = Integer.parseInt(command[4]);
		long stop = System.nanoTime() + Long.parseLong(command[5]) * 1_000_000;
		Duration lease = command[6].equals("renew") ? null : Duration.ofMillis(Long.parseLong(command[6]));
		long bodyNanos = Long.parseLong(command[7]) * 1_000_000;
		int resourcePort = Integer.parseInt(command[8]);
		Path file = Path.of(command[9]);
		List<String> holds = new CopyOnWriteArrayList<>();
		List<String> errors = new CopyOnWriteArrayList<>();
		List<Thread> started = new CopyOnWriteArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread thread = new Thread(() -> {
				try (FencedResource resource = new FencedResource(resourcePort)) {
					while (System.nanoTime() - stop < 0) {
						try {
							WorkerLock.Held held = lock.take(keys, lease, Duration.ofSeconds(2));
							try {
								holds.addAll(body(resource, keys, held, lock.exclusive(), bodyNanos));
							}
							finally {
								held.release();
							}
						}
						catch (RuntimeException ex) {
							errors.add(System.nanoTime() + " " + ex.getClass().getSimpleName());
							Pause.millis(10);
						}
					}
				}
			}, "contend-" + id + "-" + t);
			started.add(thread);
			thread.start();
		}
		Thread reporter = new Thread(() -> {
			started.forEach(ContendCommand::joinQuietly);
			write(file, holds);
			write(Path.of(file + ".errors"), errors);
			Replies.send("contended " + id + " " + holds.size() + " " + errors.size());
		}, "contend-" + id);
		reporter.start();
	}

	private static List<String> body(FencedResource resource, List<String> keys, WorkerLock.Held held,
			boolean exclusive, long bodyNanos) {
		long start = System.nanoTime();
		boolean[] accepted = new boolean[keys.size()];
		for (int i = 0; i < keys.size(); i++) {
			String key = keys.get(i);
			if (exclusive) {
				resource.incrementUnfenced("counter:" + key);
				accepted[i] = resource.writeFenced("fenced:" + key, held.token(key),
						String.valueOf(ProcessHandle.current().pid()));
			}
			else {
				accepted[i] = resource.readFenced("fenced:" + key, held.token(key));
			}
		}
		Pause.until(start + bodyNanos);
		long end = System.nanoTime();
		String holder = String.valueOf(ProcessHandle.current().pid());
		return IntStream.range(0, keys.size())
			.mapToObj((i) -> new Hold(holder, start, end, held.token(keys.get(i)), accepted[i], exclusive, keys.get(i))
				.line())
			.toList();
	}

	private static void write(Path file, List<String> lines) {
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
			lines.forEach(out::println);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void joinQuietly(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
