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
 * Thrown when the key expression of a {@link DistributedLock @DistributedLock} method
 * cannot be evaluated, yields {@code null} or a blank string, or yields a key the lock
 * client refuses ({@link InvalidLockKeyException}). The method is not invoked.
 */
public class LockKeyExpressionException extends DistributedLockException {

	/**
	 * Creates the exception.
	 * @param method the annotated method
	 * @param expression the key expression
	 * @param problem what the expression yielded or why it failed
	 * @param cause the evaluation failure, if any
	 */
	public LockKeyExpressionException(Method method, String expression, String problem, @Nullable Throwable cause) {
		super("Lock key expression \"" + expression + "\" on " + LockMethods.describe(method) + " " + problem
				+ (problem.endsWith(".") ? "" : ".") + " Make the expression yield a usable key for every call, for "
				+ "example by checking the arguments before calling the method.", cause);
	}

}
