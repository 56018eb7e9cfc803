package dev.distlock;

/**
 * Thrown when Redis cannot be reached, or fails, while acquiring or releasing a lock. A
 * locked method is never run without its lock: this exception reaches the caller instead.
 */
public class LockUnavailableException extends DistributedLockException {

	private final String key;

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param operation what was being done, such as "acquire" or "release"
	 * @param cause the Redis client's exception
	 */
	public LockUnavailableException(String key, String operation, Throwable cause) {
		super("Could not " + operation + " lock " + LockKeyQuoting.quote(key) + ": Redis is unavailable ("
				+ cause.getMessage() + "). Check spring.data.redis.* and that the Redis server is up.", cause);
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
