package dev.distlock;

/**
 * Thrown when Redis cannot be reached, or fails, while acquiring or releasing a lock. A
 * locked method is never run without its lock: this exception reaches the caller instead.
 */
public class LockUnavailableException extends DistributedLockException {

	/** The {@link #getOperation() operation} of a release, after the locked work. */
	public static final String RELEASE = "release";

	private final String key;

	private final String name;

	private final String operation;

	/**
	 * Creates the exception for a lock whose name is not known.
	 * @param key the Redis key of the lock
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param cause the Redis client's exception
	 */
	public LockUnavailableException(String key, String operation, Throwable cause) {
		this(key, LockOptions.UNNAMED, operation, cause);
	}

	/**
	 * Creates the exception.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock, as in {@link LockOptions#name()}
	 * @param operation what was being done, such as "acquire" or {@value #RELEASE}
	 * @param cause the Redis client's exception
	 */
	public LockUnavailableException(String key, String name, String operation, Throwable cause) {
		super("Could not " + operation + " lock " + LockKeyQuoting.quote(key) + ": Redis is unavailable ("
				+ cause.getMessage() + "). Check spring.data.redis.* and that the Redis server is up.", cause);
		this.key = key;
		this.name = name;
		this.operation = operation;
	}

	/**
	 * Returns the Redis key of the lock.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Returns the logical name of the lock.
	 * @return the name, {@link LockOptions#UNNAMED} if none was given or known
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Returns what was being done when Redis failed: {@code "acquire"} (the locked work
	 * did not run), {@value #RELEASE} (it ran, and its lock expires with its lease), or
	 * an operation of the actuator endpoint such as {@code "inspect"}.
	 * @return the operation
	 */
	public String getOperation() {
		return this.operation;
	}

}
