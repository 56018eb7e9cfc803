package dev.distlock;

/**
 * Thrown when a lock key is refused before anything is sent to Redis: it is blank, longer
 * than {@code distlock.max-key-length}, or in the namespace {@code distlock:} that
 * distlock keeps for its own keys (its fencing counters, queues and channels), where a
 * lock would collide with them. Nothing is locked, and a locked method is not invoked.
 */
public class InvalidLockKeyException extends DistributedLockException {

	/**
	 * Creates the exception.
	 * @param key the refused key, as given by the caller
	 * @param problem what is wrong with it, such as "is blank"
	 * @param action what to do instead
	 */
	public InvalidLockKeyException(String key, String problem, String action) {
		super("Lock key " + LockKeyQuoting.quote(key) + " " + problem + ". " + action, null);
	}

}
