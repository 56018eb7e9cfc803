package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockKeyQuoting;
import dev.distlock.LockListener;
import dev.distlock.LockUnavailableException;

/**
 * The one place where a client's lock events are logged and told to every registered
 * {@link LockListener}: debug for acquired, not acquired, passed and released, warn for a
 * lost lease and a holder that died holding its lock. A listener that throws is logged
 * and does not keep the others, or the lock, from going on. Keys are quoted
 * ({@link LockKeyQuoting}).
 */
final class LockEvents {

	private static final Log logger = LogFactory.getLog(LockEvents.class);

	private final List<LockListener> listeners;

	LockEvents(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	void acquired(RedisLockHandle handle, long startNanos) {
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

	void unavailable(String key, String name, long startNanos, LockUnavailableException failure) {
		Duration waited = since(startNanos);
		each((listener) -> listener.unavailable(key, name, waited, failure));
	}

	void startedWaiting(String key, String name) {
		each((listener) -> listener.startedWaiting(key, name));
	}

	void stoppedWaiting(String key, String name) {
		each((listener) -> listener.stoppedWaiting(key, name));
	}

	/**
	 * A hold ended.
	 * @param how how the lock went on, for the debug log: passed to a thread of this
	 * client, or what the release in Redis did
	 */
	void released(RedisLockHandle handle, Duration held, String how) {
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock " + LockKeyQuoting.quote(handle.key()) + ": " + how);
		}
		each((listener) -> listener.released(handle, held));
	}

	/**
	 * Marks a hold's lease lost and, the first time only, logs it and tells the
	 * listeners.
	 */
	void leaseLost(RedisLockHandle handle, String reason) {
		if (handle.markLeaseLost()) {
			logger.warn("Lost the lease of lock " + LockKeyQuoting.quote(handle.key()) + " after "
					+ handle.heldFor().toMillis() + "ms: " + reason + "; another holder may run at the same time");
			each((listener) -> listener.leaseLost(handle));
		}
	}

	void holderDied(RedisLockHandle handle) {
		logger.warn("Stopped renewing lock " + LockKeyQuoting.quote(handle.key()) + ": its holder thread "
				+ handle.owner().getName() + " ended without releasing it; it expires with its lease");
	}

	void renewed(int renewed, int roundTrips) {
		each((listener) -> listener.renewed(renewed, roundTrips));
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
