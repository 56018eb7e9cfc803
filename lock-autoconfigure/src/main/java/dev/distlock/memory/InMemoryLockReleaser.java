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

import dev.distlock.Deadlines;
import dev.distlock.LockLeaseLostException;

/**
 * Ends the holds of an in-memory client as the Redis client ends them: forgets the hold,
 * gives the key back to the table (which keeps it for the minimum hold, or grants it to
 * the first waiter), reports a lease found lost and then the release, and throws
 * {@link LockLeaseLostException} if the lease was lost, so that the caller learns that
 * its work may have overlapped with another holder's.
 */
final class InMemoryLockReleaser implements InMemoryLockHandle.Ending {

	private final LockTable table;

	private final ThreadHolds holds;

	private final InMemoryLockEvents events;

	InMemoryLockReleaser(LockTable table, ThreadHolds holds, InMemoryLockEvents events) {
		this.table = table;
		this.holds = holds;
		this.events = events;
	}

	@Override
	public void lastHoldEnded(InMemoryLockHandle handle) {
		this.holds.forget(handle);
		Duration heldFor = handle.heldFor();
		if (handle.isLeaseLost()) {
			this.events.leaseLost(handle, "its lease ran out before release");
		}
		Grant grant = handle.grant();
		long keepUntil = Deadlines.after(grant.grantedNanos(), handle.minHoldTime());
		boolean held = this.table.release(grant, keepUntil);
		if (!held) {
			this.events.leaseLost(handle, "another holder had it on release");
		}
		this.events.released(handle, heldFor, held ? "released, or kept for its minimum hold" : "no longer held");
		if (handle.isLeaseLost()) {
			throw new LockLeaseLostException(handle.key(), handle.name(), handle.leaseTime(), heldFor);
		}
	}

}
