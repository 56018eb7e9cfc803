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

package dev.distlock.support;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;
import dev.distlock.LockUnavailableException;

/**
 * Logs a client's lock events and tells every registered {@link LockListener}, the same
 * way for every client: debug for acquired, not acquired and released, warn for a lost
 * lease. A listener that throws is logged and does not keep the others, or the lock, from
 * going on. Keys are quoted ({@link LockKeyQuoting}). A client adds what only it reports
 * in a subclass.
 */
public class LockListeners {

	private static final Log logger = LogFactory.getLog(LockListeners.class);

	private final List<LockListener> listeners;

	/**
	 * Creates the events of one client.
	 * @param listeners the listeners to tell, in order
	 */
	public LockListeners(List<LockListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * A lock was acquired.
	 * @param handle the hold
	 * @param startNanos when the acquisition began, by {@link System#nanoTime()}
	 */
	public void acquired(LockHandle handle, long startNanos) {
		if (logger.isDebugEnabled()) {
			// The handle describes its fencing token without asking Redis for one it was
			// not issued yet.
			logger.debug("Acquired lock " + LockKeyQuoting.quote(handle.key()) + ": " + handle);
		}
		Duration waited = since(startNanos);
		each((listener) -> listener.acquired(handle, waited));
	}

	/**
	 * A lock was not acquired within the wait time.
	 * @param key the lock's key
	 * @param options the options of the acquisition
	 * @param startNanos when the acquisition began, by {@link System#nanoTime()}
	 */
	public void notAcquired(String key, LockOptions options, long startNanos) {
		if (logger.isDebugEnabled()) {
			logger.debug("Did not acquire lock " + LockKeyQuoting.quote(key));
		}
		Duration waited = since(startNanos);
		each((listener) -> listener.notAcquired(key, options, waited));
	}

	/**
	 * An acquisition failed because the store could not be reached.
	 * @param key the lock's key
	 * @param options the options of the acquisition
	 * @param startNanos when the acquisition began, by {@link System#nanoTime()}
	 * @param failure the exception the caller gets
	 */
	public void unavailable(String key, LockOptions options, long startNanos, LockUnavailableException failure) {
		Duration waited = since(startNanos);
		each((listener) -> listener.unavailable(key, options, waited, failure));
	}

	/**
	 * A caller started waiting for a lock someone else holds.
	 * @param key the lock's key
	 * @param options the options of the acquisition
	 */
	public void startedWaiting(String key, LockOptions options) {
		each((listener) -> listener.startedWaiting(key, options));
	}

	/**
	 * A caller stopped waiting, with or without the lock.
	 * @param key the lock's key
	 * @param options the options of the acquisition
	 */
	public void stoppedWaiting(String key, LockOptions options) {
		each((listener) -> listener.stoppedWaiting(key, options));
	}

	/**
	 * A hold ended.
	 * @param handle the hold
	 * @param held how long it was held
	 * @param how how the lock went on, for the debug log
	 */
	public void released(LockHandle handle, Duration held, String how) {
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock " + LockKeyQuoting.quote(handle.key()) + ": " + how);
		}
		each((listener) -> listener.released(handle, held));
	}

	/**
	 * A hold's lease was lost; the caller makes sure this is said once per hold.
	 * @param handle the hold
	 * @param heldFor how long it had been held
	 * @param reason why it counts as lost, for the log
	 */
	protected void leaseLost(LockHandle handle, Duration heldFor, String reason) {
		logger.warn("Lost the lease of lock " + LockKeyQuoting.quote(handle.key()) + " after " + heldFor.toMillis()
				+ "ms: " + reason + "; another holder may run at the same time");
		each((listener) -> listener.leaseLost(handle));
	}

	/**
	 * Tells the listeners, each on its own: one that throws is logged.
	 * @param event what to tell each listener
	 */
	protected void each(Consumer<LockListener> event) {
		for (LockListener listener : this.listeners) {
			try {
				event.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("LockListener " + listener + " failed", ex);
			}
		}
	}

	private static Duration since(long startNanos) {
		return Duration.ofNanos(System.nanoTime() - startNanos);
	}

}
