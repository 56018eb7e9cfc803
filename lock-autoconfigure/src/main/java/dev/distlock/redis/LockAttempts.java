package dev.distlock.redis;

import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;

import dev.distlock.LockUnavailableException;

/**
 * The attempts of one acquisition: one owner token, tried until the lock is acquired, the
 * deadline passes or the thread is interrupted. A caller that may wait begins its
 * {@link LockWaiter.Wait} before the first attempt; if the wait gives a hand-off channel, a
 * failed attempt also takes a place in the lock's queue, and a release may then hand the lock
 * over during the wait, with no attempt of its own. Otherwise the acquirer attempts again when
 * the wait ends, never past the deadline. An acquirer that gives up leaves the queue, passing on
 * a lock that was handed to it in the meantime.
 */
final class LockAttempts {

	private final RedisLockCommands commands;

	private final String key;

	private final String token;

	private final long leaseMillis;

	private final IntSupplier block;

	private long lastAttemptNanos;

	private int lastBlock;

	private boolean mayBeQueued;

	/**
	 * Creates the attempts of one acquisition.
	 * @param block how many fencing tokens each attempt reserves (asked again for each attempt)
	 */
	LockAttempts(RedisLockCommands commands, String key, String token, long leaseMillis, IntSupplier block) {
		this.commands = commands;
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
		this.block = block;
	}

	String token() {
		return this.token;
	}

	/**
	 * Returns when the last attempt was sent: the lease of a granted lock runs from no
	 * earlier than this (a hand-over comes after the attempt that found the lock held), so it is
	 * the safe start for counting it down locally.
	 */
	long lastAttemptNanos() {
		return this.lastAttemptNanos;
	}

	/**
	 * Returns how many fencing tokens the last attempt reserved: the size of the block whose
	 * first token a grant, or a hand-over after that attempt, carries.
	 */
	int lastBlock() {
		return this.lastBlock;
	}

	/**
	 * Tries until acquired or given up.
	 * @return the first fencing token of the reserved block, or 0 or less if not acquired
	 */
	long acquire(LockWaiter waiter, long deadline) {
		if (System.nanoTime() - deadline >= 0) {
			return attempt(null);
		}
		LockWaiter.Wait wait = waiter.begin(this.key, this.token);
		long fencingToken = 0;
		try {
			fencingToken = attemptAndWait(wait, deadline);
			return fencingToken;
		}
		finally {
			wait.close(fencingToken > 0);
		}
	}

	private long attemptAndWait(LockWaiter.Wait wait, long deadline) {
		String channel = wait.handOffChannel();
		while (true) {
			long result = attempt(channel);
			if (result > 0) {
				return result;
			}
			if (result == 0 || System.nanoTime() - deadline >= 0 || !wait.await(-1 - result, deadline)) {
				break;
			}
			long handedOver = wait.handedOverFencingToken();
			if (handedOver > 0) {
				return handedOver;
			}
		}
		if (channel != null) {
			releaseQuietly();
		}
		return 0;
	}

	/**
	 * Makes one attempt.
	 * @param handOffChannel where to be told of a hand-over if the lock is held, or null to stay
	 * out of the lock's queue
	 * @return the fencing token if acquired, 0 if the thread is interrupted, else
	 * {@code -1 - holder's remaining lease in ms}
	 */
	private long attempt(@Nullable String handOffChannel) {
		if (Thread.currentThread().isInterrupted()) {
			return 0;
		}
		this.lastAttemptNanos = System.nanoTime();
		this.lastBlock = this.block.getAsInt();
		boolean queuedBefore = this.mayBeQueued;
		this.mayBeQueued |= handOffChannel != null;
		try {
			return this.commands.acquire(this.key, this.token, this.leaseMillis, handOffChannel,
					ReleaseMessageWaiter.QUEUE_ENTRY_TTL.toMillis(), this.lastBlock, queuedBefore);
		}
		catch (DataAccessException ex) {
			if (Thread.currentThread().isInterrupted() || ex instanceof QueryTimeoutException) {
				// The acquire may have been applied even though its reply was lost: undo it if it was.
				releaseQuietly();
			}
			if (Thread.currentThread().isInterrupted()) {
				return 0;
			}
			throw new LockUnavailableException(this.key, "acquire", ex);
		}
	}

	/**
	 * Releases whatever this acquisition may have in Redis: the lock if it was granted or handed
	 * over, and its place in the queue. The interrupt flag is cleared for the call and restored.
	 */
	private void releaseQuietly() {
		boolean interrupted = Thread.interrupted();
		try {
			this.commands.leaveQueue(this.key, this.token);
		}
		catch (DataAccessException ex) {
			// The place lapses by itself, and a lock expires with its lease.
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
