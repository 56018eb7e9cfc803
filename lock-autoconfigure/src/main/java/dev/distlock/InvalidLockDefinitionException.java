package dev.distlock;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at application startup when a {@link DistributedLock @DistributedLock} annotation is
 * malformed: a missing or unparseable key expression, an unknown parameter name, a malformed
 * duration, or a return type the lock cannot wrap.
 */
public class InvalidLockDefinitionException extends DistributedLockException {

	/**
	 * Creates the exception.
	 * @param method the annotated method
	 * @param problem what is wrong and how to fix it
	 * @param cause the parse failure, if any
	 */
	public InvalidLockDefinitionException(Method method, String problem, @Nullable Throwable cause) {
		super("Invalid @DistributedLock on " + LockMethods.describe(method) + ": " + problem, cause);
	}

}
