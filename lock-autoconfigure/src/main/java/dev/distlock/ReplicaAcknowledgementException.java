/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock;

import java.time.Duration;

/**
 * Thrown when fewer replicas than {@code distlock.replication.min-replicas-acked} require
 * acknowledged the write of a grant within the acknowledgement timeout. The grant was
 * released again (a waiter may get it), and the locked method did not run: a failover
 * right after the grant could have lost it. Thrown too by a release that kept the lock
 * for its minimum hold, when too few replicas acknowledged that ({@link #getOperation()}
 * is then {@value LockUnavailableException#RELEASE}): the method ran and the lock is kept
 * on the master, but a failover now could end the minimum hold early.
 */
public class ReplicaAcknowledgementException extends LockUnavailableException {

	/** The property that sets how many replicas must acknowledge a grant. */
	public static final String PROPERTY = "distlock.replication.min-replicas-acked";

	private static final String CHECK = "Check that the master's replicas are up and connected (INFO replication), "
			+ "or lower " + PROPERTY + ".";

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
		this(key, name, "acquire",
				"Could not acquire lock " + LockKeyQuoting.quote(key) + ": the grant was " + "acknowledged by "
						+ acknowledged + " of " + required + " replicas within " + timeout.toMillis()
						+ "ms, so it was released again (" + PROPERTY + "=" + required + "). " + CHECK,
				acknowledged, required);
	}

	private ReplicaAcknowledgementException(String key, String name, String operation, String message,
			long acknowledged, int required) {
		super(key, name, operation, message, null);
		this.acknowledged = acknowledged;
		this.required = required;
	}

	/**
	 * Creates the exception of a release that kept the lock for the rest of its minimum
	 * hold on the master, which fewer replicas acknowledged than must.
	 * @param key the Redis key of the lock
	 * @param acknowledged how many replicas acknowledged the release
	 * @param required how many had to
	 * @param timeout how long they were waited for
	 * @param keepMillis how long the master keeps the lock
	 * @return the exception
	 */
	public static ReplicaAcknowledgementException minimumHold(String key, long acknowledged, int required,
			Duration timeout, long keepMillis) {
		return new ReplicaAcknowledgementException(key, LockOptions.UNNAMED, LockUnavailableException.RELEASE,
				"Lock " + LockKeyQuoting.quote(key) + " was released and is kept for the rest of its minimum hold ("
						+ keepMillis + "ms) on the master, but that was acknowledged by " + Math.max(0, acknowledged)
						+ " of " + required + " replicas within " + timeout.toMillis() + "ms (" + PROPERTY + "="
						+ required + "): a failover now could end the minimum hold early. " + CHECK,
				acknowledged, required);
	}

	/**
	 * Creates the exception of an {@linkplain LockHandle#extend(Duration) extension} that
	 * fewer replicas acknowledged than must: the master extended the lease, but the
	 * holder's deadline stays where the last acknowledged write put it.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param acknowledged how many replicas acknowledged the extension
	 * @param required how many had to
	 * @param timeout how long they were waited for
	 * @return the exception
	 */
	public static ReplicaAcknowledgementException extension(String key, String name, long acknowledged, int required,
			Duration timeout) {
		return new ReplicaAcknowledgementException(key, name, LockUnavailableException.EXTEND,
				"Lock " + LockKeyQuoting.quote(key) + " was extended on the master, but that was acknowledged by "
						+ Math.max(0, acknowledged) + " of " + required + " replicas within " + timeout.toMillis()
						+ "ms (" + PROPERTY + "=" + required + "): a failover now could lose the extension, so the "
						+ "lock's lease still counts from its last acknowledged write (see isLeaseLost()). " + CHECK,
				acknowledged, required);
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
