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

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The {@code #root} object of key expressions: the method, its arguments and its target.
 * SpEL reads its properties ({@code #root.methodName}) by reflection, which
 * {@link LockKeyRootObjectRuntimeHints} allows in a native image.
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

	/**
	 * Lets SpEL call the getters of the root object in a native image. Registered in
	 * {@code META-INF/spring/aot.factories}.
	 */
	static final class LockKeyRootObjectRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerType(LockKeyRootObject.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		}

	}

}
