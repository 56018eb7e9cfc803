package dev.distlock.faults;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import org.jspecify.annotations.Nullable;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;

/**
 * {@code hold <id> <key> <leaseMs|renew> <holdMs|-1> <waitMs>}: on a thread of its own,
 * acquires the key through the {@link LockClient} bean and replies
 * {@code acquired <id> <token> <nanos>} (or
 * {@code error <id> <exception> <elapsedMs> <message>}); watches
 * {@link LockHandle#isLeaseLost()} every millisecond and replies
 * {@code lost <id> <nanos>} when it turns true; releases after {@code holdMs}, or on
 * {@code release <id>} if {@code holdMs} is {@code -1}, and replies
 * {@code released <id> <nanos> leaseLost=<bool> <outcome>}, where {@code nanos} is when
 * the hold's work ended and {@code release()} was called: a release that hands the lock
 * over makes the next holder's acquisition happen inside its own round trip, so a time
 * taken after it returns would show an overlap that never was.
 */
final class HoldCommand {

	private final LockClient client;

	private final Map<String, CountDownLatch> releases = new ConcurrentHashMap<>();

	HoldCommand(LockClient client) {
		this.client = client;
	}

	void start(String[] command) {
		String id = command[1];
		String key = command[2];
		Duration lease = command[3].equals("renew") ? null : Duration.ofMillis(Long.parseLong(command[3]));
		long holdMillis = Long.parseLong(command[4]);
		LockOptions options = new LockOptions(Duration.ofMillis(Long.parseLong(command[5])), lease, Duration.ZERO);
		CountDownLatch release = new CountDownLatch(1);
		this.releases.put(id, release);
		Thread thread = new Thread(() -> hold(id, key, options, holdMillis, release), "hold-" + id);
		thread.start();
	}

	void release(String id) {
		CountDownLatch release = this.releases.remove(id);
		if (release != null) {
			release.countDown();
		}
	}

	private void hold(String id, String key, LockOptions options, long holdMillis, CountDownLatch release) {
		long start = System.nanoTime();
		LockHandle handle;
		try {
			handle = this.client.lock(key, options);
		}
		catch (RuntimeException ex) {
			Replies.send("error " + id + " " + ex.getClass().getSimpleName() + " "
					+ (System.nanoTime() - start) / 1_000_000 + " " + Replies.describe(ex));
			return;
		}
		long acquired = System.nanoTime();
		Replies.send("acquired " + id + " " + handle.fencingToken() + " " + acquired);
		Thread watcher = new Thread(() -> watch(id, handle), "watch-" + id);
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
			handle.release();
		}
		catch (RuntimeException ex) {
			outcome = ex.getClass().getSimpleName();
		}
		Replies.send("released " + id + " " + ended + " leaseLost=" + handle.isLeaseLost() + " " + outcome);
	}

	private static void watch(String id, LockHandle handle) {
		while (!handle.isReleased()) {
			if (handle.isLeaseLost()) {
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

}
