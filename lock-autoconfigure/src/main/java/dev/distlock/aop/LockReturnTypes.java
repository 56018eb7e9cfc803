package dev.distlock.aop;

import java.lang.reflect.Method;
import java.util.concurrent.Future;

import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Async;

import dev.distlock.InvalidLockDefinitionException;

/**
 * Rejects methods whose work finishes after they return (futures, {@code Mono},
 * {@code Flux}, ...): the lock would be released while the work still runs.
 * {@code @Async} methods are accepted, since their lock is taken and released inside the
 * executor's thread.
 */
final class LockReturnTypes {

	private LockReturnTypes() {
	}

	static void check(Method method) {
		Class<?> returnType = method.getReturnType();
		boolean deferred = Future.class.isAssignableFrom(returnType)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) != null;
		if (deferred && !isAsync(method)) {
			throw new InvalidLockDefinitionException(method,
					"it returns " + returnType.getName() + ", whose work "
							+ "completes after the method returns, so the lock would be released too early",
					"Lock a method that does the work before returning.", null);
		}
	}

	private static boolean isAsync(Method method) {
		return AnnotatedElementUtils.hasAnnotation(method, Async.class)
				|| AnnotatedElementUtils.hasAnnotation(method.getDeclaringClass(), Async.class);
	}

}
