package dev.distlock.faults;

import dev.distlock.LockListener;
import dev.distlock.LockOptions;

/**
 * Tells a worker's parent when a caller starts waiting for a lock another holder has (its
 * first attempt found the lock held): reply {@code waiting <key>}. Scenarios wait for it
 * instead of guessing how long a first attempt takes.
 */
final class WaitingReporter implements LockListener {

	@Override
	public void startedWaiting(String key, LockOptions options) {
		Replies.send("waiting " + key);
	}

}
