package dev.distlock.redis.cohort;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.wait.WaitTimings;

/**
 * Passes locks between the threads of one client without Redis (lock cohorting). Per key,
 * one thread of the client at a time acquires the lock in Redis, the representative; the
 * others wait here, first come, first served. A holder that releases while others wait
 * here passes the lock to the first of them without a round trip: the key keeps the owner
 * token it was granted with, renewal goes on, and the new holder takes the next fencing
 * token of the block the grant in Redis reserved, so tokens still increase with every
 * holder. When the block is used up, the lease is not auto-renewed or is in doubt, or a
 * minimum hold applies, the lock is released in Redis instead, which hands it to the
 * waiters of other processes first, and the first thread waiting here becomes the
 * representative. Other processes so wait at most one block of holds longer than with
 * every hold through Redis.
 */
public final class LocalCohort {

	private final Map<String, KeyCohort> queues = new ConcurrentHashMap<>();

	private final int block;

	private final RedisReachability reachability;

	private final PendingReleases pending;

	/**
	 * Creates the cohort of one client.
	 * @param maxLocalPasses how many times in a row a lock may pass between threads of
	 * the client without Redis; 0 to always go through Redis
	 * @param reachability what the client knows of Redis: no pass while it is in doubt
	 * @param pending releases a lock whose pass came too late to be used
	 */
	public LocalCohort(int maxLocalPasses, RedisReachability reachability, PendingReleases pending) {
		this.block = maxLocalPasses + 1;
		this.reachability = reachability;
		this.pending = pending;
	}

	/**
	 * Returns how many fencing tokens an attempt in Redis reserves: enough for the lock
	 * to pass between threads of the client if its lease is auto-renewed and other
	 * threads of the client wait for it now, else one (so tokens of uncontended locks
	 * follow each other).
	 */
	public int tokensToReserve(String key, boolean passable) {
		KeyCohort queue = (passable && this.block > 1) ? this.queues.get(key) : null;
		if (queue == null) {
			return 1;
		}
		synchronized (queue) {
			return queue.hasWaiters() ? this.block : 1;
		}
	}

	/**
	 * Lines up for a lock: the representative's part at once if no thread of the client
	 * holds or acquires the lock; else a place in line, to {@link #awaitTurn await}, or,
	 * for a caller that may not wait, giving up (the lock is taken).
	 * @return the turn, or a {@link Turn.Queued place in line}
	 */
	public Turn enter(String key, boolean passable, long deadlineNanos) {
		if (this.block == 1) {
			return Turn.ACQUIRE_IN_REDIS;
		}
		boolean mayWait = deadlineNanos - System.nanoTime() > 0;
		while (true) {
			KeyCohort queue = this.queues.computeIfAbsent(key, (k) -> new KeyCohort());
			QueuedThread waiter;
			synchronized (queue) {
				if (queue.isRetired()) {
					continue;
				}
				if (queue.isFree()) {
					queue.becomeRepresentative();
					return Turn.ACQUIRE_IN_REDIS;
				}
				if (!mayWait) {
					return Turn.GIVE_UP;
				}
				waiter = queue.add(passable);
			}
			return new Turn.Queued(key, queue, waiter);
		}
	}

	/**
	 * Waits in line until passed the lock, made the representative, or the deadline
	 * passes.
	 * @param queued the place in line {@link #enter} gave
	 * @return the turn: never {@link Turn.Queued}
	 */
	public Turn awaitTurn(Turn.Queued queued, long deadlineNanos) {
		String key = queued.key();
		KeyCohort queue = queued.cohort();
		QueuedThread waiter = queued.thread();
		while (true) {
			long remaining = deadlineNanos - System.nanoTime();
			boolean interrupted = !waiter.await(Math.min(remaining, WaitTimings.MAX_SILENT_WAIT.toNanos()));
			boolean givingUp = interrupted || deadlineNanos - System.nanoTime() <= 0;
			QueuedThread.State state = waiter.state();
			if (state == QueuedThread.State.WAITING || (state == QueuedThread.State.PROMOTED && givingUp)) {
				Deque<QueuedThread> wake = new ArrayDeque<>(1);
				synchronized (queue) {
					state = queue.settle(waiter, givingUp, wake);
					retireIfIdle(key, queue);
				}
				wake.forEach(QueuedThread::wake);
			}
			switch (state) {
				case PASSED -> {
					return takeBaton(key, queue, Objects.requireNonNull(waiter.baton()));
				}
				case PROMOTED -> {
					return Turn.ACQUIRE_IN_REDIS;
				}
				case GAVE_UP -> {
					return Turn.GIVE_UP;
				}
				default -> {
				}
			}
		}
	}

	/**
	 * Takes the lock a holder passed on, unless its validity ran out while this thread
	 * was being woken (a pause, CPU starvation): then the thread goes to Redis instead,
	 * and the lock is released there by its owner token in the background.
	 */
	private Turn takeBaton(String key, KeyCohort queue, Baton baton) {
		if (!baton.lease().isPastDeadline()) {
			return new Turn.Passed(baton);
		}
		synchronized (queue) {
			queue.rejectBaton(baton);
		}
		this.pending.release(key, baton.token(), System.nanoTime() + baton.leaseNanos());
		return Turn.ACQUIRE_IN_REDIS;
	}

	public void acquiredInRedis(String key, PassableHold handle, int block) {
		update(key, (queue) -> {
			queue.acquiredInRedis(handle, block);
			return null;
		});
	}

	public void representativeGaveUp(String key) {
		update(key, KeyCohort::representativeGaveUp);
	}

	/**
	 * Passes a lock that a holder releases to the first thread waiting for it here, if
	 * allowed.
	 * @return whether it was passed; if not, release it in Redis and call
	 * {@link #releasedInRedis}
	 */
	public boolean passOn(PassableHold handle) {
		return update(handle.key(), (queue) -> queue.passOn(handle, handle.mayPassLocally(this.reachability)));
	}

	public void heldBy(PassableHold handle) {
		update(handle.key(), (queue) -> {
			queue.heldBy(handle);
			return null;
		});
	}

	public void releasedInRedis(PassableHold handle) {
		update(handle.key(), (queue) -> queue.releasedInRedis(handle));
	}

	/**
	 * Changes the queue of a key under its monitor, retires it if that left it idle, and
	 * wakes the waiter the change names, after leaving the monitor.
	 * @return whether a waiter was woken
	 */
	private boolean update(String key, Function<KeyCohort, @Nullable QueuedThread> change) {
		KeyCohort queue = (this.block > 1) ? this.queues.get(key) : null;
		if (queue == null) {
			return false;
		}
		QueuedThread wake;
		synchronized (queue) {
			wake = change.apply(queue);
			retireIfIdle(key, queue);
		}
		if (wake != null) {
			wake.wake();
		}
		return wake != null;
	}

	private void retireIfIdle(String key, KeyCohort queue) {
		if (queue.isIdle() && !queue.isRetired()) {
			queue.retire();
			this.queues.remove(key, queue);
		}
	}

}
