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

package dev.distlock.redis.cohort;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The {@link KeyCohort}s of one client, by Redis key: one is created when a thread of the
 * client lines up for a key that has none, and retired and removed once it is idle again
 * (no thread of the client holds, acquires or waits for the lock), so that the map holds
 * only keys in use. A thread that finds a cohort retired takes a new one.
 */
final class KeyCohorts {

	private final Map<String, KeyCohort> cohorts = new ConcurrentHashMap<>();

	/**
	 * Returns the cohort of a key, if there is one.
	 * @return the cohort, or null if no thread of the client holds, acquires or waits for
	 * the lock
	 */
	@Nullable KeyCohort get(String key) {
		return this.cohorts.get(key);
	}

	/**
	 * Returns the cohort of a key, created if there is none; it may have been retired
	 * since: check under its monitor.
	 */
	KeyCohort getOrCreate(String key) {
		return this.cohorts.computeIfAbsent(key, (k) -> new KeyCohort());
	}

	/**
	 * Changes the cohort of a key under its monitor, retires it if that left it idle, and
	 * wakes the waiter the change names, after leaving the monitor.
	 * @return whether a waiter was woken
	 */
	boolean update(String key, Function<KeyCohort, @Nullable QueuedThread> change) {
		KeyCohort queue = this.cohorts.get(key);
		if (queue == null) {
			return false;
		}
		QueuedThread wake;
		synchronized (queue) {
			wake = change.apply(queue);
			retireIfIdle(key, queue);
		}
		if (wake != null) {
			wake.wake();
		}
		return wake != null;
	}

	/**
	 * Retires the cohort of a key and removes it if it is idle; call holding its monitor.
	 */
	void retireIfIdle(String key, KeyCohort queue) {
		if (queue.isIdle() && !queue.isRetired()) {
			queue.retire();
			this.cohorts.remove(key, queue);
		}
	}

}
