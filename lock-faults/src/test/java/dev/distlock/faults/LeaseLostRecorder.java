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

package dev.distlock.faults;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;

/**
 * A listener bean that records when each key's lease was reported lost.
 */
public class LeaseLostRecorder implements LockListener {

	private final Map<String, Long> lost = new ConcurrentHashMap<>();

	@Override
	public void leaseLost(LockHandle handle) {
		this.lost.putIfAbsent(handle.key(), System.nanoTime());
	}

	/**
	 * When the lease of a key was reported lost.
	 * @param key the Redis key
	 * @return {@link System#nanoTime()} of the event, {@code -1} if none
	 */
	long lostAt(String key) {
		return this.lost.getOrDefault(key, -1L);
	}

}
