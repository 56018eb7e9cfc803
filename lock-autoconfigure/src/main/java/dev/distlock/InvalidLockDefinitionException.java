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

package dev.distlock;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at application startup when a {@link DistributedLock @DistributedLock}
 * annotation is malformed: a missing or unparseable key expression, an unknown parameter
 * name, a malformed duration, or a return type the lock cannot wrap. The message names
 * the method, what is wrong and what to do; {@link #getDescription()} and
 * {@link #getAction()} give the two parts apart.
 */
public class InvalidLockDefinitionException extends DistributedLockException {

	private final transient Method method;

	private final String description;

	private final String action;

	/**
	 * Creates the exception.
	 * @param method the annotated method
	 * @param problem what is wrong, as a clause without a final period, such as
	 * {@code "the key is
	 * empty"}
	 * @param action what to do about it, as one or more sentences
	 * @param cause the parse failure, if any
	 */
	public InvalidLockDefinitionException(Method method, String problem, String action, @Nullable Throwable cause) {
		super(describe(method, problem) + " " + action, cause);
		this.method = method;
		this.description = describe(method, problem);
		this.action = action;
	}

	private static String describe(Method method, String problem) {
		return "Invalid @DistributedLock on " + LockMethods.describe(method) + ": " + problem + ".";
	}

	/**
	 * Returns the annotated method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Returns what is wrong, naming the method: the message without the action.
	 * @return the description
	 */
	public String getDescription() {
		return this.description;
	}

	/**
	 * Returns what to do about it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
	}

}
