package dev.distlock.redis;

import java.time.Duration;

import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;

import dev.distlock.LockUnavailableException;

/**
 * The attempts of one acquisition: one owner token, tried until the lock is acquired, the
 * deadline passes or the thread is interrupted. After a failed first attempt the acquirer
 * starts waiting and at once tries again, so that a release announced in between is not
 * missed; then it waits as the {@link LockWaiter} decides, never past the deadline.
 */
final class LockAttempts {

	private final RedisLockCommands commands;

	private final String key;

	private final String token;

	private final long leaseMillis;

	private long lastAttemptNanos;

	LockAttempts(RedisLockCommands commands, String key, String token, long leaseMillis) {
		this.commands = commands;
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
	}

	String token() {
		return this.token;
	}

	/**
	 * Returns when the last attempt was sent: the lease of a granted lock runs from no
	 * earlier than this, so it is the safe start for counting it down locally.
	 */
	long lastAttemptNanos() {
		return this.lastAttemptNanos;
	}

	/**
	 * Tries until acquired or given up.
	 * @return the fencing token, or 0 or less if not acquired
	 */
	long acquire(LockWaiter waiter, long start, Duration waitTime) {
		long deadline = start + saturatedNanos(waitTime);
		long result = attempt();
		if (result >= 0 || System.nanoTime() - deadline >= 0) {
			return result;
		}
		LockWaiter.Wait wait = waiter.begin(this.key);
		boolean acquired = false;
		try {
			while (true) {
				result = attempt();
				if (result > 0) {
					acquired = true;
					return result;
				}
				if (result == 0 || System.nanoTime() - deadline >= 0 || !wait.await(-1 - result, deadline)) {
					return 0;
				}
			}
		}
		finally {
			wait.close(acquired);
		}
	}

	/**
	 * Makes one attempt.
	 * @return the fencing token if acquired, 0 if the thread is interrupted, else
	 * {@code -1 - holder's remaining lease in ms}
	 */
	private long attempt() {
		if (Thread.currentThread().isInterrupted()) {
			return 0;
		}
		this.lastAttemptNanos = System.nanoTime();
		try {
			return this.commands.acquire(this.key, this.token, this.leaseMillis);
		}
		catch (DataAccessException ex) {
			boolean interrupted = Thread.interrupted();
			if (interrupted || ex instanceof QueryTimeoutException) {
				// The acquire may have been applied even though its reply was lost: undo it if it was.
				undoQuietly();
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
				return 0;
			}
			throw new LockUnavailableException(this.key, "acquire", ex);
		}
	}

	private void undoQuietly() {
		try {
			this.commands.release(this.key, this.token, 0);
		}
		catch (DataAccessException ex) {
			// It expires with its lease.
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

}
