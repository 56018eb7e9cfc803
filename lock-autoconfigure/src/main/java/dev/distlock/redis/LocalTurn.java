package dev.distlock.redis;

import org.jspecify.annotations.Nullable;

/**
 * What a thread does after taking its turn for a lock among the threads of its client
 * ({@link LocalHandOffs#enter}): hold the lock passed to it, acquire it in Redis, or give up.
 *
 * @param baton what the previous holder passed on, or null if nothing was passed
 * @param toRedis whether to acquire in Redis, as the client's representative
 */
record LocalTurn(@Nullable Baton baton, boolean toRedis) {

	/** Acquire in Redis. */
	static final LocalTurn REDIS = new LocalTurn(null, true);

	/** Give up: the wait ended, or the caller may not wait while the client has the lock. */
	static final LocalTurn NONE = new LocalTurn(null, false);

	static LocalTurn handed(@Nullable Baton baton) {
		return new LocalTurn(baton, false);
	}

}
