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

package dev.distlock.sample.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;
import dev.distlock.LockOptions;

/**
 * Records, in the demo's instances, how long each acquisition took: a
 * {@link LockListener} that distlock tells about every lock it acquired
 * ({@code acquired(handle, waited)}) and every one it gave up on after the wait time
 * ({@code notAcquired(key, options, waited)}), with the time from the first attempt: the
 * wait for other holders plus the Redis round trips. Samples are grouped by lock family:
 * the key up to its last {@code ':'}, such as {@code lock:sku}.
 * <p>
 * Registered only by the demo (it is not a component), so the service itself records
 * nothing.
 */
public class LockWaitRecorder implements LockListener {

	private final Map<String, List<Long>> samples = new TreeMap<>();

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		record(handle.key(), waited);
	}

	@Override
	public void notAcquired(String key, LockOptions options, Duration waited) {
		record(key, waited);
	}

	private synchronized void record(String key, Duration waited) {
		int end = key.lastIndexOf(':');
		String family = (end > 0) ? key.substring(0, end) : key;
		this.samples.computeIfAbsent(family, (name) -> new ArrayList<>()).add(waited.toNanos());
	}

	/**
	 * Forgets every sample recorded so far.
	 */
	public synchronized void reset() {
		this.samples.clear();
	}

	/**
	 * Returns the acquisition times recorded so far, by lock family.
	 * @return a copy of the samples, in nanoseconds
	 */
	public synchronized Map<String, List<Long>> samples() {
		Map<String, List<Long>> copy = new TreeMap<>();
		this.samples.forEach((family, nanos) -> copy.put(family, List.copyOf(nanos)));
		return copy;
	}

}
