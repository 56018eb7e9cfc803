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
