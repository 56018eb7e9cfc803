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

import java.time.Duration;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.distlock.Deadlines;
import dev.distlock.LockHandle;
import dev.distlock.LockLeaseLostException;
import dev.distlock.LockOptions;
import dev.distlock.observation.LockObservationDocumentation;

/**
 * Acquires for an {@link InMemoryLockClient}, with the events and observations of the
 * Redis client: a key the calling thread already holds is re-entered at once
 * ({@link ThreadHolds}), unobserved and unreported; any other acquisition is observed
 * ({@link LockObservationDocumentation#ACQUISITION}) and makes one attempt in the
 * {@link LockTable}. A caller that may wait and finds the key taken waits in the key's
 * line, reported as {@link dev.distlock.LockListener#startedWaiting started} and
 * {@link dev.distlock.LockListener#stoppedWaiting stopped waiting}; then the acquisition
 * is reported as acquired or not acquired. A new hold is observed until its release
 * ({@link LockObservationDocumentation#HOLD}).
 */
final class InMemoryAcquirer {

	private final ThreadHolds holds;

	private final LockTable table;

	private final InMemoryLockEvents events;

	private final InMemoryLockHandle.Ending ending;

	private final Duration renewalLease;

	private final ObservationRegistry observationRegistry;

	InMemoryAcquirer(ThreadHolds holds, LockTable table, InMemoryLockEvents events, InMemoryLockHandle.Ending ending,
			Duration renewalLease, ObservationRegistry observationRegistry) {
		this.holds = holds;
		this.table = table;
		this.events = events;
		this.ending = ending;
		this.renewalLease = renewalLease;
		this.observationRegistry = observationRegistry;
	}

	/**
	 * Acquires a key for the calling thread, waiting no longer than the options allow.
	 * @param key the key, including the client's key prefix
	 * @param options the options of the call
	 * @param start when the call began, by {@link System#nanoTime()}
	 * @return the hold, or null if not acquired in time or interrupted
	 * @throws LockLeaseLostException if the thread's hold of the key has lost its lease
	 */
	@Nullable LockHandle acquire(String key, LockOptions options, long start) {
		LockHandle reentered = this.holds.reenter(key, options);
		if (reentered != null) {
			return reentered;
		}
		InMemoryLockHandle handle = LockObservationDocumentation.observeAcquisition(this.observationRegistry, key,
				options, () -> acquireNew(key, options, start));
		if (handle != null) {
			handle.observe(LockObservationDocumentation.HOLD.start(this.observationRegistry, key, options));
		}
		return handle;
	}

	private @Nullable InMemoryLockHandle acquireNew(String key, LockOptions options, long start) {
		Duration lease = (options.leaseTime() != null) ? options.leaseTime() : this.renewalLease;
		long deadline = Deadlines.after(start, options.waitTime());
		boolean mayWait = deadline - System.nanoTime() > 0;
		LockRequest request = new LockRequest(key, lease, options);
		Grant grant = this.table.attempt(request, mayWait);
		if (grant == null && mayWait) {
			this.events.startedWaiting(key, options);
			try {
				grant = this.table.await(request, deadline);
			}
			finally {
				this.events.stoppedWaiting(key, options);
			}
		}
		if (grant == null) {
			this.events.notAcquired(key, options, start);
			return null;
		}
		InMemoryLockHandle handle = new InMemoryLockHandle(grant, options, this.ending, this.table);
		this.holds.add(handle);
		this.events.acquired(handle, start);
		return handle;
	}

}
