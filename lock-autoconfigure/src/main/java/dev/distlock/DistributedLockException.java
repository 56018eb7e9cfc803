package dev.distlock;

import org.jspecify.annotations.Nullable;

/**
 * Base class of every exception distlock throws, so that callers can catch them all at
 * once.
 */
public abstract class DistributedLockException extends RuntimeException {

	/**
	 * Creates an exception with a message and an optional cause.
	 * @param message what went wrong and what to do about it
	 * @param cause the underlying failure, if any
	 */
	protected DistributedLockException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
