package dev.distlock.benchmarks;

/**
 * A {@link Contender} whose acquire and release are separate calls, so that it can hold
 * many locks at once (scenario 4).
 */
interface ExplicitContender extends Contender {

	/**
	 * Acquires the lock with the lease used for short critical sections.
	 * @param key the lock key
	 * @return the held lock
	 */
	Held acquire(String key);

	/**
	 * Acquires a lock meant to be held for a long time: with an auto-renewed lease where
	 * the library has one, else with a long fixed lease.
	 * @param key the lock key
	 * @return the held lock
	 */
	Held acquireLongHeld(String key);

	/**
	 * Describes the lease of {@link #acquireLongHeld}, as shown in the tables.
	 * @return the description
	 */
	String longLease();

	@Override
	default void runLocked(String key, Runnable section) {
		Held held = acquire(key);
		try {
			section.run();
		}
		finally {
			held.release();
		}
	}

	/**
	 * A held lock.
	 */
	@FunctionalInterface
	interface Held {

		/**
		 * Releases the lock.
		 */
		void release();

	}

}
