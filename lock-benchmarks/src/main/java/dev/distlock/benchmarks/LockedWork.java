package dev.distlock.benchmarks;

import dev.distlock.DistributedLock;

/**
 * The annotated-method contender: a bean whose method runs its argument under the lock
 * named by its other argument, with the configured wait and lease.
 */
public class LockedWork {

	/**
	 * Runs the section under the lock on the key.
	 * @param key the lock key
	 * @param section the work
	 */
	@DistributedLock(key = "#key")
	public void run(String key, Runnable section) {
		section.run();
	}

}
