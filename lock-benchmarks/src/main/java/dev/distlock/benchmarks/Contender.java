package dev.distlock.benchmarks;

/**
 * One lock implementation under test, reduced to what every scenario needs: run a
 * critical section while holding the lock on a key, waiting as long as it takes to get
 * it.
 */
interface Contender {

	/**
	 * Returns the name shown in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Acquires the lock on the key (waiting as long as it takes), runs the section and
	 * releases.
	 * @param key the lock key
	 * @param section the work done under the lock
	 */
	void runLocked(String key, Runnable section);

}
