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

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockClient;

/**
 * {@code hold <id> <key>[,<key>...] <leaseMs|renew> <holdMs|-1> <waitMs> [<lock>]}: on a
 * thread of its own, takes the {@link WorkerLock} the last word names ({@code distlock}
 * unless given: an exclusive lock through the {@link LockClient} bean) and replies
 * {@code acquired <id> <token> <nanos> <calledNanos>} (the first key's token; when it was
 * acquired, and when it was asked for, before the first attempt was sent), or
 * {@code error <id> <exception> <elapsedMs> <message>}; watches the hold's lease every
 * millisecond and replies {@code lost <id> <nanos>} when the holder learns it is lost;
 * releases after {@code holdMs}, or on {@code release <id>} if {@code holdMs} is
 * {@code -1}, and replies {@code released <id> <nanos> leaseLost=<bool> <outcome>}, where
 * {@code nanos} is when the hold's work ended and {@code release()} was called: a release
 * that hands the lock over makes the next holder's acquisition happen inside its own
 * round trip, so a time taken after it returns would show an overlap that never was.
 * <p>
 * While it holds: {@code write <id> <resourcePort>} writes the fenced register
 * {@code fenced:<key>} of the {@link FencedResource} with the hold's token and replies
 * {@code written <id> <accepted>}; {@code read <id> <resourcePort>} reads it as a reader
 * and replies {@code read <id> <accepted>}; {@code write-unfenced <id> <resourcePort>}
 * sets the plain register {@code plain:<key>} to the hold's id, with no token, and
 * replies {@code written-unfenced <id>}.
 */
final class HoldCommand {

	private final LockClient client;

	private final StringRedisTemplate redis;

	private final Map<String, CountDownLatch> releases = new ConcurrentHashMap<>();

	private final Map<String, Taken> holds = new ConcurrentHashMap<>();

	HoldCommand(LockClient client, StringRedisTemplate redis) {
		this.client = client;
		this.redis = redis;
	}

	void start(String[] command) {
		String id = command[1];
		List<String> keys = Arrays.asList(command[2].split(","));
		Duration lease = command[3].equals("renew") ? null : Duration.ofMillis(Long.parseLong(command[3]));
		long holdMillis = Long.parseLong(command[4]);
		Duration wait = Duration.ofMillis(Long.parseLong(command[5]));
		WorkerLock lock = WorkerLock.named((command.length > 6) ? command[6] : "distlock", this.client, this.redis);
		CountDownLatch release = new CountDownLatch(1);
		this.releases.put(id, release);
		Thread thread = new Thread(() -> hold(id, keys, lock, lease, wait, holdMillis, release), "hold-" + id);
		thread.start();
	}

	void release(String id) {
		CountDownLatch release = this.releases.remove(id);
		if (release != null) {
			release.countDown();
		}
	}

	void write(String id, int resourcePort) {
		Taken taken = this.holds.get(id);
		try (FencedResource resource = new FencedResource(resourcePort)) {
			boolean accepted = taken.keys()
				.stream()
				.allMatch((key) -> resource.writeFenced("fenced:" + key, taken.held().token(key), id));
			Replies.send("written " + id + " " + accepted);
		}
	}

	void writeUnfenced(String id, int resourcePort) {
		Taken taken = this.holds.get(id);
		try (RespConnection resource = Resp.connect(resourcePort)) {
			taken.keys().forEach((key) -> resource.call("SET", "plain:" + key, id));
			Replies.send("written-unfenced " + id);
		}
	}

	void read(String id, int resourcePort) {
		Taken taken = this.holds.get(id);
		try (FencedResource resource = new FencedResource(resourcePort)) {
			boolean accepted = taken.keys()
				.stream()
				.allMatch((key) -> resource.readFenced("fenced:" + key, taken.held().token(key)));
			Replies.send("read " + id + " " + accepted);
		}
	}

	private void hold(String id, List<String> keys, WorkerLock lock, @Nullable Duration lease, Duration wait,
			long holdMillis, CountDownLatch release) {
		long start = System.nanoTime();
		WorkerLock.Held held;
		try {
			held = lock.take(keys, lease, wait);
		}
		catch (RuntimeException ex) {
			Replies.send("error " + id + " " + ex.getClass().getSimpleName() + " "
					+ (System.nanoTime() - start) / 1_000_000 + " " + Replies.describe(ex));
			return;
		}
		long acquired = System.nanoTime();
		this.holds.put(id, new Taken(keys, held));
		Replies.send("acquired " + id + " " + held.token(keys.get(0)) + " " + acquired + " " + start);
		Thread watcher = new Thread(() -> watch(id, held), "watch-" + id);
		watcher.setDaemon(true);
		watcher.start();
		if (holdMillis >= 0) {
			Pause.until(acquired + holdMillis * 1_000_000);
		}
		else {
			awaitQuietly(release);
		}
		String outcome = "ok";
		long ended = System.nanoTime();
		try {
			held.release();
		}
		catch (RuntimeException ex) {
			outcome = ex.getClass().getSimpleName();
		}
		this.holds.remove(id);
		Replies.send("released " + id + " " + ended + " leaseLost=" + held.isLeaseLost() + " " + outcome);
	}

	private static void watch(String id, WorkerLock.Held held) {
		while (!held.isReleased()) {
			if (held.isLeaseLost()) {
				Replies.send("lost " + id + " " + System.nanoTime());
				return;
			}
			Pause.millis(1);
		}
	}

	private static void awaitQuietly(@Nullable CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** A hold being held, and its keys. */
	private record Taken(List<String> keys, WorkerLock.Held held) {

	}

}
