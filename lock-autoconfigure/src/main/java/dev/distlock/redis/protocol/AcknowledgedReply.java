package dev.distlock.redis.protocol;

import org.jspecify.annotations.Nullable;

/**
 * A lock script's reply, and how many replicas acknowledged its writes
 * ({@link AcknowledgedScript}).
 *
 * @param reply the reply, {@code null} if there was none
 * @param replicas how many replicas acknowledged, {@link #NOT_ASKED} if the script wrote
 * nothing to acknowledge
 */
record AcknowledgedReply<T>(@Nullable T reply, long replicas) {

	/** How many replicas acknowledged a script that wrote nothing to acknowledge. */
	static final long NOT_ASKED = -1;

	/**
	 * Returns whether the script wrote nothing to acknowledge, or enough replicas
	 * acknowledged it.
	 * @param required how many replicas must acknowledge
	 */
	boolean suffices(int required) {
		return this.replicas == NOT_ASKED || this.replicas >= required;
	}

}
