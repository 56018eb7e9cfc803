package dev.distlock;

/**
 * Thrown when Redis answers a lock command with an error that means the application or
 * Redis is misconfigured, not that Redis is down: the user lacks a permission
 * ({@code NOPERM}), the credentials are wrong ({@code NOAUTH}, {@code WRONGPASS}), a key
 * distlock uses holds another type of value ({@code WRONGTYPE}), or Redis refuses a
 * command or a lock script; or when one key is locked in two ways that Redis keeps in
 * different structures (an exclusive lock and a read-write lock or semaphore, or
 * semaphores of different sizes). Retrying does not help, and
 * {@link DistributedLock#onUnavailable()} never applies: the caller always gets this
 * exception, and the method is not run.
 */
public class LockMisconfigurationException extends DistributedLockException {

	private final String key;

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param operation what was being done, such as "acquire" or "release"
	 * @param reply the error Redis replied with
	 * @param fix what to change, in the words of the error's kind
	 * @param cause the Redis client's exception
	 */
	public LockMisconfigurationException(String key, String operation, String reply, String fix, Throwable cause) {
		super("Could not " + operation + " lock " + LockKeyQuoting.quote(key) + ": Redis refused the command (" + reply
				+ "). " + fix, cause);
		this.key = key;
	}

	/**
	 * Creates the exception for a misuse that the client finds itself, without asking
	 * Redis: a key locked in two ways, such as an exclusive lock and a read-write lock,
	 * or semaphores of different sizes.
	 * @param key the key of the lock
	 * @param message what is wrong, naming the key, and what to do
	 */
	public LockMisconfigurationException(String key, String message) {
		super(message, null);
		this.key = key;
	}

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
