package dev.distlock.benchmarks;

import reactor.core.publisher.Mono;

/**
 * One reactive lock implementation under test, reduced to what the reactive scenarios
 * need: run a piece of reactive work while holding the lock on a key, waiting as long as
 * it takes to get it, without blocking a thread.
 */
interface ReactiveContender {

	/**
	 * Returns the name shown in the tables.
	 * @return the name
	 */
	String name();

	/**
	 * Returns whether the contender excludes holders of one key from each other; the
	 * floor does not, so it only runs where no two operations share a key.
	 * @return whether it is a lock
	 */
	default boolean isLock() {
		return true;
	}

	/**
	 * Acquires the lock on the key when subscribed, runs the work and releases when the
	 * work ends.
	 * @param <T> the work's result type
	 * @param key the lock key
	 * @param work the work done under the lock
	 * @return the work's result
	 */
	<T> Mono<T> withLock(String key, Mono<T> work);

}
