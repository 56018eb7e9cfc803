package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.LockListener;

/**
 * The callers of one client that wait for a lock another holder has: listed for monitoring, and
 * reported to the listeners as they start and stop waiting, whatever the {@link LockWaiter}.
 */
final class WaitingAcquirers {

	private final Set<Waiting> waiting = ConcurrentHashMap.newKeySet();

	private final LockListener listener;

	WaitingAcquirers(LockListener listener) {
		this.listener = listener;
	}

	/**
	 * Returns a waiter that waits as the given one does and tracks the waits of one acquisition.
	 */
	LockWaiter tracking(LockWaiter waiter, String name) {
		return (key) -> begin(waiter, key, name);
	}

	List<LockWaiterInfo> snapshot() {
		long now = System.nanoTime();
		return this.waiting.stream()
			.map((entry) -> new LockWaiterInfo(entry.name, entry.key, entry.thread.getName(),
					Duration.ofNanos(now - entry.sinceNanos)))
			.toList();
	}

	private LockWaiter.Wait begin(LockWaiter waiter, String key, String name) {
		LockWaiter.Wait wait = waiter.begin(key);
		Waiting entry = new Waiting(name, key, Thread.currentThread(), System.nanoTime());
		this.waiting.add(entry);
		this.listener.startedWaiting(key, name);
		return new LockWaiter.Wait() {

			@Override
			public boolean await(long holderLeaseMillis, long deadlineNanos) {
				return wait.await(holderLeaseMillis, deadlineNanos);
			}

			@Override
			public void close(boolean acquired) {
				try {
					wait.close(acquired);
				}
				finally {
					WaitingAcquirers.this.waiting.remove(entry);
					WaitingAcquirers.this.listener.stoppedWaiting(key, name);
				}
			}

		};
	}

	/** One waiting call; compared by identity. */
	private static final class Waiting {

		final String name;

		final String key;

		final Thread thread;

		final long sinceNanos;

		Waiting(String name, String key, Thread thread, long sinceNanos) {
			this.name = name;
			this.key = key;
			this.thread = thread;
			this.sinceNanos = sinceNanos;
		}

	}

}
