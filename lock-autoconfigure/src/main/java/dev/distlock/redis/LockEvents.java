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

package dev.distlock.redis;

import java.time.Duration;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockHandle;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockListener;
import dev.distlock.support.LockListeners;

/**
 * The one place where the Redis client's lock events are logged and told to every
 * registered {@link LockListener}: those every client reports ({@link LockListeners}),
 * and what only this client sees: a lease lost (said once per hold), a holder that died
 * holding its lock, and renewal rounds.
 */
final class LockEvents extends LockListeners {

	private static final Log logger = LogFactory.getLog(LockEvents.class);

	LockEvents(List<LockListener> listeners) {
		super(listeners);
	}

	/** Logs and tells the listeners that a hold's lease was lost (said once per hold). */
	@Override
	public void leaseLost(LockHandle handle, Duration heldFor, String reason) {
		super.leaseLost(handle, heldFor, reason);
	}

	/** Logs that the thread holding a lock ended without releasing it. */
	void holderDied(String key, Thread holder) {
		logger.warn("Stopped renewing lock " + LockKeyQuoting.quote(key) + ": its holder thread " + holder.getName()
				+ " ended without releasing it; it expires with its lease");
	}

	void renewed(int renewed, int roundTrips) {
		each((listener) -> listener.renewed(renewed, roundTrips));
	}

}
