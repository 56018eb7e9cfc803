package dev.distlock.aop;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * The {@code #root} object of key expressions: the method, its arguments and its target.
 */
public final class LockKeyRootObject {

	private final Method method;

	private final @Nullable Object[] args;

	private final @Nullable Object target;

	private final Class<?> targetClass;

	LockKeyRootObject(Method method, @Nullable Object[] args, @Nullable Object target, Class<?> targetClass) {
		this.method = method;
		this.args = args;
		this.target = target;
		this.targetClass = targetClass;
	}

	/**
	 * Returns the annotated method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Returns the method's name.
	 * @return the name
	 */
	public String getMethodName() {
		return this.method.getName();
	}

	/**
	 * Returns the call's arguments.
	 * @return the arguments
	 */
	public @Nullable Object[] getArgs() {
		return this.args;
	}

	/**
	 * Returns the object the method is called on.
	 * @return the target
	 */
	public @Nullable Object getTarget() {
		return this.target;
	}

	/**
	 * Returns the class of the target.
	 * @return the target class
	 */
	public Class<?> getTargetClass() {
		return this.targetClass;
	}

}
