package dev.distlock.redlock;

import java.time.Duration;
import java.util.List;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.support.LockListeners;

/**
 * Where a {@link RedLockClient}'s lock events are logged and told to every registered
 * {@link LockListener}, as the Redis client tells them ({@link LockListeners}), so the
 * lock meters and any other listener work the same with {@code distlock.store=redlock};
 * the caller says a lost lease once per hold.
 */
final class RedLockEvents extends LockListeners {

	RedLockEvents(List<LockListener> listeners) {
		super(listeners);
	}

	/** Logs a lost lease and tells the listeners. */
	void reportLeaseLost(LockHandle handle, Duration heldFor, String reason) {
		leaseLost(handle, heldFor, reason);
	}

}
