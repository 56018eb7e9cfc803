package dev.distlock.redis.protocol;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * What a client knows of its connection to Redis: when a lock command last failed, when a
 * connection was last lost, and whether Redis has stopped answering (commands
 * outstanding, none completing for a while).
 * <ul>
 * <li>A hold passes between threads of the client without Redis only while Redis is not
 * in doubt, and only if Redis confirmed it after the last failure or lost connection
 * (after a reconnect, Redis may have restarted empty).</li>
 * <li>A wait that ends while Redis is in doubt ends as unavailable, never as "not
 * acquired". Only the lock's own commands count here: a connection the application closes
 * on purpose does not make a busy lock look like an outage.</li>
 * </ul>
 */
public final class RedisReachability {

	/**
	 * How long commands may be outstanding with none completing before Redis is in doubt:
	 * far beyond the time Redis takes to run a lock script, well within a command
	 * timeout.
	 */
	public static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private final AtomicInteger outstanding = new AtomicInteger();

	private volatile long progressNanos = System.nanoTime();

	private volatile long answerNanos = System.nanoTime();

	private volatile long failureNanos = System.nanoTime();

	private volatile boolean failed;

	private volatile long lostConnectionNanos = System.nanoTime();

	private volatile boolean lostConnection;

	private volatile @Nullable String misconfiguration;

	/**
	 * Records that a command is about to be sent.
	 * @return the send time, by {@link System#nanoTime()}
	 */
	public long sending() {
		long now = System.nanoTime();
		if (this.outstanding.getAndIncrement() == 0) {
			this.progressNanos = now;
		}
		return now;
	}

	/**
	 * Records that a command sent with {@link #sending()} is done.
	 * @param answered whether Redis answered it
	 * @param excused whether a failure says nothing about Redis (the caller was
	 * interrupted)
	 * @param misconfiguration what to fix if Redis answered with an error that means
	 * misconfiguration, {@code null} if it did not
	 */
	public void done(boolean answered, boolean excused, @Nullable String misconfiguration) {
		long now = System.nanoTime();
		this.outstanding.decrementAndGet();
		this.progressNanos = now;
		this.misconfiguration = misconfiguration;
		if (answered) {
			this.answerNanos = now;
		}
		else if (!excused) {
			this.failureNanos = now;
			this.failed = true;
		}
	}

	/**
	 * Returns what to fix, if the last lock command got an error reply that means
	 * misconfiguration (a missing permission, wrong credentials).
	 * @return the fix, or {@code null}
	 */
	public @Nullable String misconfiguration() {
		return this.misconfiguration;
	}

	/** Records that a connection to Redis was lost (Redis may come back empty). */
	public void connectionLost() {
		this.lostConnectionNanos = System.nanoTime();
		this.lostConnection = true;
	}

	/**
	 * Whether Redis is in doubt now: the last lock command failed, or lock commands are
	 * outstanding and none has completed for a while.
	 */
	public boolean inDoubt() {
		return (this.failed && this.failureNanos - this.answerNanos >= 0)
				|| (this.outstanding.get() > 0 && System.nanoTime() - this.progressNanos > STALL_NANOS);
	}

	/**
	 * Whether a hold confirmed by a command sent at the given time may pass to another
	 * thread without Redis: nothing is in doubt, and the confirmation was sent after the
	 * last failure and the last lost connection.
	 */
	public boolean allowsLocalPass(long confirmedSendNanos) {
		return !inDoubt() && (!this.failed || confirmedSendNanos - this.failureNanos > 0)
				&& (!this.lostConnection || confirmedSendNanos - this.lostConnectionNanos > 0);
	}

}
