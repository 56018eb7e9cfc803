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
