package dev.distlock;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Describes methods the same way in every message.
 */
final class LockMethods {

	private LockMethods() {
	}

	static String describe(Method method) {
		String parameters = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return method.getDeclaringClass().getName() + "." + method.getName() + "(" + parameters + ")";
	}

}
