package dev.distlock;

import java.time.Duration;

/**
 * Thrown when fewer replicas than {@code distlock.replication.min-replicas-acked} require
 * acknowledged the write of a grant within the acknowledgement timeout. The grant was
 * released again (a waiter may get it), and the locked method did not run: a failover
 * right after the grant could have lost it.
 */
public class ReplicaAcknowledgementException extends LockUnavailableException {

	/** The property that sets how many replicas must acknowledge a grant. */
	public static final String PROPERTY = "distlock.replication.min-replicas-acked";

	private final long acknowledged;

	private final int required;

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param acknowledged how many replicas acknowledged the grant
	 * @param required how many had to
	 * @param timeout how long they were waited for
	 */
	public ReplicaAcknowledgementException(String key, String name, long acknowledged, int required, Duration timeout) {
		super(key, name, "acquire",
				"Could not acquire lock " + LockKeyQuoting.quote(key) + ": the grant was " + "acknowledged by "
						+ acknowledged + " of " + required + " replicas within " + timeout.toMillis()
						+ "ms, so it was released again (" + PROPERTY + "=" + required + "). Check that the master's "
						+ "replicas are up and connected (INFO replication), or lower " + PROPERTY + ".",
				null);
		this.acknowledged = acknowledged;
		this.required = required;
	}

	/**
	 * Returns how many replicas acknowledged the grant.
	 * @return the count, less than {@link #getRequired()}
	 */
	public long getAcknowledged() {
		return this.acknowledged;
	}

	/**
	 * Returns how many replicas had to acknowledge the grant.
	 * @return the count
	 */
	public int getRequired() {
		return this.required;
	}

}
