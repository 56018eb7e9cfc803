package dev.distlock.faults;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * {@code contend <id> <distlock|blog> <key> <threads> <durationMs> <leaseMs|renew> <bodyMs> <resourcePort> <file>}:
 * threads that take the lock in a loop for a while. Each locked body records its
 * interval, adds one to the unfenced counter {@code counter:<key>} and writes the fenced
 * register {@code fenced:<key>} of the {@link FencedResource}, then holds for
 * {@code bodyMs}. When all threads are done, the holds go to the file as
 * {@code <start> <end> <token> <fencedAccepted>} and the reply is
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
		boolean blog = command[2].equals("blog");
		String key = command[3];
		int threads = Integer.parseInt(command[4]);
		long stop = System.nanoTime() + Long.parseLong(command[5]) * 1_000_000;
		Duration lease = command[6].equals("renew") ? null : Duration.ofMillis(Long.parseLong(command[6]));
		long bodyNanos = Long.parseLong(command[7]) * 1_000_000;
		int resourcePort = Integer.parseInt(command[8]);
		Path file = Path.of(command[9]);
		LockOptions options = new LockOptions(Duration.ofSeconds(2), lease, Duration.ZERO);
		BlogLock blogLock = new BlogLock(this.redis, (lease != null) ? lease : Duration.ofSeconds(30));
		List<String> holds = new CopyOnWriteArrayList<>();
		AtomicInteger errors = new AtomicInteger();
		List<Thread> started = new CopyOnWriteArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread thread = new Thread(() -> {
				try (FencedResource resource = new FencedResource(resourcePort)) {
					while (System.nanoTime() - stop < 0) {
						try {
							if (blog) {
								blogLock.run(key, (token) -> holds.add(body(resource, key, token, bodyNanos)));
							}
							else {
								try (LockHandle handle = this.client.lock(key, options)) {
									holds.add(body(resource, key, handle.fencingToken(), bodyNanos));
								}
							}
						}
						catch (RuntimeException ex) {
							errors.incrementAndGet();
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
			Replies.send("contended " + id + " " + holds.size() + " " + errors.get());
		}, "contend-" + id);
		reporter.start();
	}

	private static String body(FencedResource resource, String key, long token, long bodyNanos) {
		long start = System.nanoTime();
		resource.incrementUnfenced("counter:" + key);
		boolean accepted = resource.writeFenced("fenced:" + key, token, String.valueOf(ProcessHandle.current().pid()));
		Pause.until(start + bodyNanos);
		return start + " " + System.nanoTime() + " " + token + " " + accepted;
	}

	private static void write(Path file, List<String> holds) {
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
			holds.forEach(out::println);
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
