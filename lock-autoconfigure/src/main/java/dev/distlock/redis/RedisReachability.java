package dev.distlock.redis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a client knows of its connection to Redis: when a command last failed or the
 * connection was last lost (trouble), and whether Redis has stopped answering (commands
 * outstanding, none completing for a while). A hold passes between threads of the client
 * without Redis only while nothing is in doubt, and only if Redis confirmed it after the last
 * trouble (after a reconnect, Redis may have restarted empty). A wait that ends while Redis is
 * in doubt ends as unavailable, never as "not acquired".
 */
final class RedisReachability {

	/**
	 * How long commands may be outstanding with none completing before Redis is in doubt: far
	 * beyond the time Redis takes to run a lock script, well within a command timeout.
	 */
	static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private final AtomicInteger outstanding = new AtomicInteger();

	private volatile long progressNanos = System.nanoTime();

	private volatile long successNanos = System.nanoTime();

	private volatile long troubleNanos = System.nanoTime();

	private volatile boolean troubled;

	/**
	 * Records that a command is about to be sent.
	 * @return the send time, by {@link System#nanoTime()}
	 */
	long sending() {
		long now = System.nanoTime();
		if (this.outstanding.getAndIncrement() == 0) {
			this.progressNanos = now;
		}
		return now;
	}

	/** Records that Redis answered a command. */
	void answered() {
		long now = System.nanoTime();
		this.outstanding.decrementAndGet();
		this.progressNanos = now;
		this.successNanos = now;
	}

	/** Records that a command failed: no answer in time, or the connection failed. */
	void failed() {
		this.outstanding.decrementAndGet();
		this.progressNanos = System.nanoTime();
		troubleNow();
	}

	/** Records that a connection to Redis was lost (Redis may come back empty). */
	void connectionLost() {
		troubleNow();
	}

	private void troubleNow() {
		this.troubleNanos = System.nanoTime();
		this.troubled = true;
	}

	/**
	 * Whether Redis is in doubt now: the last command failed (or a connection was lost) after
	 * the last answer, or commands are outstanding and none has completed for a while.
	 */
	boolean inDoubt() {
		long now = System.nanoTime();
		return (this.troubled && this.troubleNanos - this.successNanos >= 0)
				|| (this.outstanding.get() > 0 && now - this.progressNanos > STALL_NANOS);
	}

	/**
	 * Whether a hold confirmed by a command sent at the given time may pass to another thread
	 * without Redis: nothing is in doubt, and the confirmation was sent after the last trouble.
	 */
	boolean allowsLocalPass(long confirmedSendNanos) {
		return !inDoubt() && (!this.troubled || confirmedSendNanos - this.troubleNanos > 0);
	}

}
