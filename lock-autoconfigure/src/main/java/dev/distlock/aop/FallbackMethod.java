/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

import dev.distlock.DistributedLockException;
import dev.distlock.InvalidLockDefinitionException;

/**
 * The {@link dev.distlock.DistributedLock#fallbackMethod() fallback method} of a locked
 * method: a method of the same class, of any visibility, taking the locked method's
 * parameters and optionally, as one more parameter, the exception that made the lock
 * fail. It is called on the target object itself, not through the proxy, so it runs
 * without any advice and no lock.
 */
public final class FallbackMethod {

	/** What a fallback method must look like, as advice in messages. */
	static final String HOW = "Name in fallbackMethod a method of the same class that takes the locked method's "
			+ "parameters, optionally followed by the exception, and returns a type assignable to its return type.";

	private final Method method;

	private final boolean takesFailure;

	private final boolean returnsResult;

	private FallbackMethod(Method method, boolean takesFailure, boolean returnsResult) {
		this.method = method;
		this.takesFailure = takesFailure;
		this.returnsResult = returnsResult;
		ReflectionUtils.makeAccessible(method);
	}

	/**
	 * Returns the fallback method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Calls the fallback with the arguments of the locked call, plus the failure if it
	 * takes it.
	 * @param target the object the locked method was called on
	 * @param arguments the arguments of the locked call
	 * @param failure why the lock was not taken
	 * @return what the fallback returned, or {@code null} if the locked method is
	 * {@code void}
	 * @throws Throwable what the fallback threw, unchanged
	 */
	public @Nullable Object invoke(@Nullable Object target, @Nullable Object[] arguments,
			DistributedLockException failure) throws Throwable {
		if (target == null && !Modifier.isStatic(this.method.getModifiers())) {
			throw new IllegalStateException(
					"Cannot call fallback " + describe(this.method) + " without a target " + "object", failure);
		}
		@Nullable Object[] args = arguments;
		if (this.takesFailure) {
			args = Arrays.copyOf(arguments, arguments.length + 1);
			args[arguments.length] = failure;
		}
		Object result = AopUtils.invokeJoinpointUsingReflection(target, this.method, args);
		return this.returnsResult ? result : null;
	}

	/**
	 * Finds the one method of the target class that can stand in for the locked method.
	 * @param locked the locked method
	 * @param targetClass the class whose instances the fallback is called on
	 * @param name the fallback method's name
	 * @param failures the exceptions the fallback is called for; a trailing exception
	 * parameter must accept each of them
	 * @return the fallback
	 * @throws InvalidLockDefinitionException if no method, or more than one, fits
	 */
	static FallbackMethod resolve(Method locked, Class<?> targetClass, String name,
			List<Class<? extends DistributedLockException>> failures) {
		Method[] named = ReflectionUtils.getUniqueDeclaredMethods(targetClass,
				(candidate) -> candidate.getName().equals(name) && !candidate.isBridge() && !candidate.isSynthetic());
		List<Method> fitting = Arrays.stream(named)
			.filter((candidate) -> takesArguments(candidate, locked, targetClass, failures))
			.toList();
		String expected = "it must take " + parameters(locked) + ", optionally followed by a parameter that accepts "
				+ failures.stream().map(Class::getSimpleName).collect(Collectors.joining(" and "));
		if (fitting.isEmpty()) {
			throw invalid(locked, name, (named.length == 0)
					? "there is no method of that name on " + targetClass.getName()
					: "no method of that name fits: " + expected + "; found " + describeAll(Arrays.asList(named)), HOW);
		}
		if (fitting.size() > 1) {
			throw invalid(locked, name, "it is ambiguous, " + describeAll(fitting) + " all fit",
					"Rename or remove all but one.");
		}
		Method fallback = fitting.get(0);
		boolean returnsResult = locked.getReturnType() != void.class;
		if (returnsResult && !ResolvableType.forMethodReturnType(locked, targetClass)
			.isAssignableFrom(ResolvableType.forMethodReturnType(fallback, targetClass))) {
			throw invalid(locked, name,
					describe(fallback) + " returns " + fallback.getGenericReturnType().getTypeName()
							+ ", which is not assignable to " + locked.getGenericReturnType().getTypeName(),
					"Make the fallback return " + locked.getGenericReturnType().getTypeName() + " or a subtype.");
		}
		return new FallbackMethod(fallback, fallback.getParameterCount() > locked.getParameterCount(), returnsResult);
	}

	private static boolean takesArguments(Method candidate, Method locked, Class<?> targetClass,
			List<Class<? extends DistributedLockException>> failures) {
		int count = locked.getParameterCount();
		if (candidate.getParameterCount() != count && candidate.getParameterCount() != count + 1) {
			return false;
		}
		for (int i = 0; i < count; i++) {
			if (!ResolvableType.forMethodParameter(candidate, i, targetClass)
				.isAssignableFrom(ResolvableType.forMethodParameter(locked, i, targetClass))) {
				return false;
			}
		}
		if (candidate.getParameterCount() == count) {
			return true;
		}
		Class<?> failureType = candidate.getParameterTypes()[count];
		return failures.stream().allMatch(failureType::isAssignableFrom);
	}

	private static InvalidLockDefinitionException invalid(Method locked, String name, String problem, String action) {
		return new InvalidLockDefinitionException(locked, "fallbackMethod \"" + name + "\" cannot be used: " + problem,
				action, null);
	}

	private static String describeAll(List<Method> methods) {
		return methods.stream().map(FallbackMethod::describe).sorted().collect(Collectors.joining(", "));
	}

	private static String describe(Method method) {
		return method.getName() + parameters(method);
	}

	private static String parameters(Method method) {
		return Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", ", "(", ")"));
	}

	@Override
	public String toString() {
		return "FallbackMethod[" + this.method + "]";
	}

}
