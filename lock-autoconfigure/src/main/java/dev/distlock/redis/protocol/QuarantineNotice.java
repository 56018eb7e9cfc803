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

package dev.distlock.redis.protocol;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells the log, once per quarantine, that Redis grants no lock during a restart
 * quarantine ({@link RestartQuarantine}): callers only see locks they cannot get, as if
 * held, so the reason must be written somewhere.
 */
final class QuarantineNotice {

	private static final Log logger = LogFactory.getLog(RestartQuarantine.class);

	/** Until when, by {@link System#nanoTime()}, the quarantine was last reported. */
	private final AtomicLong reportedUntil = new AtomicLong(System.nanoTime());

	/**
	 * Reports a quarantine that an acquire attempt found, unless one was reported that
	 * has not ended yet.
	 * @param key the Redis key of the lock
	 * @param leftMillis how long the quarantine lasts
	 */
	void found(String key, long leftMillis) {
		long now = System.nanoTime();
		long until = this.reportedUntil.get();
		if (now - until >= 0
				&& this.reportedUntil.compareAndSet(until, now + TimeUnit.MILLISECONDS.toNanos(leftMillis))) {
			logger.warn("Redis lost distlock's state (a restart without persistence, a flush) or is new: it grants no "
					+ "lock for another " + leftMillis + "ms, the rest of its restart quarantine ("
					+ RestartQuarantine.ENABLED_PROPERTY + "), so that no hold granted before the loss overlaps a new "
					+ "one; callers wait for it as for a held lock (found acquiring " + key + ")");
		}
	}

}
