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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.LockHandle;
import dev.distlock.LockListener;

/**
 * Records what a client tells its listeners.
 */
final class RecordingLockListener implements LockListener {

	final List<LockHandle> lost = new CopyOnWriteArrayList<>();

	final List<int[]> renewalRounds = new CopyOnWriteArrayList<>();

	final AtomicInteger acquired = new AtomicInteger();

	final AtomicInteger released = new AtomicInteger();

	@Override
	public void acquired(LockHandle handle, Duration waited) {
		this.acquired.incrementAndGet();
	}

	@Override
	public void released(LockHandle handle, Duration held) {
		this.released.incrementAndGet();
	}

	@Override
	public void leaseLost(LockHandle handle) {
		this.lost.add(handle);
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		this.renewalRounds.add(new int[] { renewed, roundTrips });
	}

	int renewedLocks() {
		return this.renewalRounds.stream().mapToInt((round) -> round[0]).sum();
	}

}
