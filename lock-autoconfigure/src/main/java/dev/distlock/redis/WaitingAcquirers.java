package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.HandOverMessage;
import dev.distlock.redis.wait.LockWaiter;

/**
 * The callers of one client that wait for a lock another holder has: listed for monitoring, and
 * reported to the listeners as they start and stop waiting, whatever the {@link LockWaiter}. A
 * caller starts waiting when its first attempt has failed, not when its wait begins (before
 * that attempt), so an acquisition that succeeds at once is never reported as waiting.
 */
final class WaitingAcquirers {

	private final Set<Waiting> waiting = ConcurrentHashMap.newKeySet();

	private final LockEvents events;

	WaitingAcquirers(LockEvents events) {
		this.events = events;
	}

	/**
	 * Returns a waiter that waits as the given one does and tracks the waits of one acquisition.
	 */
	LockWaiter tracking(LockWaiter waiter, String name) {
		return (key, token) -> new TrackedWait(waiter.begin(key, token), key, name);
	}

	/** Records that the current thread waits for a lock; pass the result to {@link #stopped}. */
	Waiting started(String key, String name) {
		Waiting entry = new Waiting(name, key, Thread.currentThread(), System.nanoTime());
		this.waiting.add(entry);
		this.events.startedWaiting(key, name);
		return entry;
	}

	void stopped(Waiting entry) {
		this.waiting.remove(entry);
		this.events.stoppedWaiting(entry.key(), entry.name());
	}

	List<LockWaiterInfo> snapshot() {
		long now = System.nanoTime();
		return this.waiting.stream()
			.map((entry) -> new LockWaiterInfo(entry.name(), entry.key(), entry.thread().getName(),
					Duration.ofNanos(now - entry.sinceNanos())))
			.toList();
	}

	/** One waiting call; compared by identity. */
	record Waiting(String name, String key, Thread thread, long sinceNanos) {

		@Override
		public boolean equals(@Nullable Object other) {
			return this == other;
		}

		@Override
		public int hashCode() {
			return System.identityHashCode(this);
		}

	}

	private final class TrackedWait implements LockWaiter.Wait {

		private final LockWaiter.Wait wait;

		private final String key;

		private final String name;

		private @Nullable Waiting entry;

		TrackedWait(LockWaiter.Wait wait, String key, String name) {
			this.wait = wait;
			this.key = key;
			this.name = name;
		}

		@Override
		public @Nullable String handOffChannel() {
			return this.wait.handOffChannel();
		}

		@Override
		public boolean await(long holderLeaseMillis, long deadlineNanos) {
			if (this.entry == null) {
				this.entry = started(this.key, this.name);
			}
			return this.wait.await(holderLeaseMillis, deadlineNanos);
		}

		@Override
		public @Nullable HandOverMessage takeHandOver() {
			return this.wait.takeHandOver();
		}

		@Override
		public void close(boolean acquired) {
			try {
				this.wait.close(acquired);
			}
			finally {
				if (this.entry != null) {
					stopped(this.entry);
				}
			}
		}

	}

}
