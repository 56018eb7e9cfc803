package dev.distlock.memory;

import java.util.List;

import dev.distlock.LockListener;
import dev.distlock.support.LockListeners;

/**
 * Where an in-memory client's lock events are logged and told to every registered
 * {@link LockListener}, as the Redis client tells them ({@link LockListeners}), with a
 * lost lease said once per hold. Never called under the table's mutex.
 */
final class InMemoryLockEvents extends LockListeners {

	InMemoryLockEvents(List<LockListener> listeners) {
		super(listeners);
	}

	/** Logs a lost lease and tells the listeners, the first time only. */
	void leaseLost(InMemoryLockHandle handle, String reason) {
		if (handle.markLossReported()) {
			leaseLost(handle, handle.heldFor(), reason);
		}
	}

}
