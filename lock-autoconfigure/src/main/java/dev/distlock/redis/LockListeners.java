package dev.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockUnavailableException;

/**
 * Tells every registered {@link LockListener} about an event; a listener that throws is logged
 * and does not keep the others, or the lock, from going on.
 */
final class LockListeners implements LockListener {

	private static final Log logger = LogFactory.getLog(LockListeners.class);

	private final List<LockListener> listeners;

	LockListeners(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		each((listener) -> listener.acquired(handle, waited));
	}

	@Override
	public void notAcquired(String key, String name, Duration waited) {
		each((listener) -> listener.notAcquired(key, name, waited));
	}

	@Override
	public void unavailable(String key, String name, Duration waited, LockUnavailableException failure) {
		each((listener) -> listener.unavailable(key, name, waited, failure));
	}

	@Override
	public void startedWaiting(String key, String name) {
		each((listener) -> listener.startedWaiting(key, name));
	}

	@Override
	public void stoppedWaiting(String key, String name) {
		each((listener) -> listener.stoppedWaiting(key, name));
	}

	@Override
	public void released(LockHandle handle, Duration held) {
		each((listener) -> listener.released(handle, held));
	}

	@Override
	public void leaseLost(LockHandle handle) {
		each((listener) -> listener.leaseLost(handle));
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		each((listener) -> listener.renewed(renewed, roundTrips));
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
