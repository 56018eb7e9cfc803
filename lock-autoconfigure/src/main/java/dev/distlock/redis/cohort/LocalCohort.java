package dev.distlock.redis.cohort;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisReachability;

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

	private final KeyCohorts cohorts = new KeyCohorts();

	private final int block;

	private final RedisReachability reachability;

	private final TurnWaiter waiter;

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
		this.waiter = new TurnWaiter(this.cohorts, pending);
	}

	/**
	 * Returns how many fencing tokens an attempt in Redis reserves: enough for the lock
	 * to pass between threads of the client if its lease is auto-renewed and other
	 * threads of the client wait for it now, else one (so tokens of uncontended locks
	 * follow each other).
	 */
	public int tokensToReserve(String key, boolean passable) {
		KeyCohort queue = (passable && this.block > 1) ? this.cohorts.get(key) : null;
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
			KeyCohort queue = this.cohorts.getOrCreate(key);
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
		return this.waiter.awaitTurn(queued, deadlineNanos);
	}

	/** The representative got the lock in Redis, with a block of fencing tokens. */
	public void acquiredInRedis(String key, PassableHold handle, int block) {
		update(key, (queue) -> {
			queue.acquiredInRedis(handle, block);
			return null;
		});
	}

	/** The representative did not get the lock: the first waiter here goes next. */
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

	/** The thread passed the lock now holds it with its own handle. */
	public void heldBy(PassableHold handle) {
		update(handle.key(), (queue) -> {
			queue.heldBy(handle);
			return null;
		});
	}

	/** A hold ended in Redis: if it was the client's, the first waiter goes next. */
	public void releasedInRedis(PassableHold handle) {
		update(handle.key(), (queue) -> queue.releasedInRedis(handle));
	}

	/**
	 * Changes the cohort of a key, if the client passes locks at all and the key has one;
	 * see {@link KeyCohorts#update}.
	 * @return whether a waiter was woken
	 */
	private boolean update(String key, Function<KeyCohort, @Nullable QueuedThread> change) {
		return this.block > 1 && this.cohorts.update(key, change);
	}

}
