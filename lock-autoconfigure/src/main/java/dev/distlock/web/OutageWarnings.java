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

package dev.distlock.web;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.LockListener;

/**
 * Decides which {@code 503} answers to an unavailable Redis are logged as a warning: the
 * first for each lock name in each outage, so that an operator sees every lock an outage
 * stopped without a line per request. For a lock name, an outage ends when Redis answers
 * a caller of that name again, with a grant or with the lock held elsewhere; it is told
 * so as a {@link LockListener}, which the auto-configuration registers with the lock
 * client. The auto-configured {@link LockProblemDetailsExceptionHandler} uses the bean.
 */
public class OutageWarnings implements LockListener {

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	/**
	 * Records an answer to an unavailable Redis for the lock.
	 * @param name the logical name of the lock
	 * @return whether it is the first for that name since the outage began, to be logged
	 * as a warning
	 */
	public boolean firstOfOutage(String name) {
		return this.warned.add(name);
	}

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		this.warned.remove(handle.name());
	}

	@Override
	public void notAcquired(String key, LockOptions options, Duration waited) {
		this.warned.remove(options.name());
	}

}
