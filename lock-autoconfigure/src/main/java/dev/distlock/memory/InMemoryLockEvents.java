package dev.distlock.memory;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockListener;

/**
 * Where an in-memory client's lock events are logged and told to every registered
 * {@link LockListener}, as the Redis client tells them: debug for acquired, not acquired
 * and released, warn for a lost lease. A listener that throws is logged and does not keep
 * the others, or the lock, from going on. Never called under the table's mutex.
 */
final class InMemoryLockEvents {

	private static final Log logger = LogFactory.getLog(InMemoryLockEvents.class);

	private final List<LockListener> listeners;

	InMemoryLockEvents(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	void acquired(LockHandle handle, long startNanos) {
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock " + LockKeyQuoting.quote(handle.key()) + " with fencing token "
					+ handle.fencingToken());
		}
		Duration waited = since(startNanos);
		each((listener) -> listener.acquired(handle, waited));
	}

	void notAcquired(String key, String name, long startNanos) {
		if (logger.isDebugEnabled()) {
			logger.debug("Did not acquire lock " + LockKeyQuoting.quote(key));
		}
		Duration waited = since(startNanos);
		each((listener) -> listener.notAcquired(key, name, waited));
	}

	void startedWaiting(String key, String name) {
		each((listener) -> listener.startedWaiting(key, name));
	}

	void stoppedWaiting(String key, String name) {
		each((listener) -> listener.stoppedWaiting(key, name));
	}

	void released(LockHandle handle, Duration held, String how) {
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock " + LockKeyQuoting.quote(handle.key()) + ": " + how);
		}
		each((listener) -> listener.released(handle, held));
	}

	/** Logs a lost lease and tells the listeners, the first time only. */
	void leaseLost(InMemoryLockHandle handle, String reason) {
		if (handle.markLossReported()) {
			logger.warn("Lost the lease of lock " + LockKeyQuoting.quote(handle.key()) + " after "
					+ handle.heldFor().toMillis() + "ms: " + reason + "; another holder may run at the same time");
			each((listener) -> listener.leaseLost(handle));
		}
	}

	private static Duration since(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos);
	}

	private void each(Consumer<LockListener> event) {
		for (LockListener listener : this.listeners) {
			try {
				event.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("LockListener " + listener + " failed", ex);
			}
		}
	}

}
