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
