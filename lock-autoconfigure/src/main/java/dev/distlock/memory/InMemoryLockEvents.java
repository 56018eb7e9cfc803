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
