package dev.distlock;

/**
 * Thrown when a thread that holds the {@link LockMode#READ read} lock of a key asks for
 * its {@link LockMode#WRITE write} lock: the write lock waits until every reader has
 * left, including the thread itself, so it would wait for itself. Take the write lock
 * first (a writer may take the read lock of its key, which re-enters its hold), or
 * release the read lock before asking for the write lock. Nothing is acquired.
 */
public class IllegalLockUpgradeException extends DistributedLockException {

	private final String key;

	/**
	 * Creates the exception.
	 * @param key the key of the lock
	 * @param message what was asked, and what to do instead
	 */
	public IllegalLockUpgradeException(String key, String message) {
		super(message, null);
		this.key = key;
	}

	/**
	 * Returns the key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
