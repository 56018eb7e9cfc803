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

import dev.distlock.InvalidLockDefinitionException;

/**
 * Rejects {@link dev.distlock.DistributedLock @DistributedLock} methods that would run
 * without their lock: private, static and final methods, which Spring's proxies never
 * intercept, and Kotlin {@code suspend} functions where Spring cannot invoke them as
 * coroutines (without kotlinx-coroutines-reactor and kotlin-reflect), whose body would
 * run after the interceptor has returned. Calls from within the same bean
 * (self-invocation) bypass the proxy too, but cannot be seen from here;
 * docs/using.md#calls-must-go-through-the-proxy explains them.
 */
final class InterceptableMethods {

	private static final String UNLOCKED = ", so it would run without its lock";

	private InterceptableMethods() {
	}

	static void check(Method method) {
		int modifiers = method.getModifiers();
		if (Modifier.isStatic(modifiers)) {
			throw invalid(method,
					"it is static, and Spring's proxies only intercept calls to a bean's instance methods" + UNLOCKED,
					"Make it an instance method of a bean and call it through the bean.");
		}
		if (Modifier.isPrivate(modifiers)) {
			throw invalid(method, "it is private, and Spring's proxies never intercept private methods" + UNLOCKED,
					"Make it public and call it through the bean (from another bean, not from the same one).");
		}
		if (Modifier.isFinal(modifiers)) {
			throw invalid(method,
					"it is final, and the class-based proxy Spring Boot creates cannot override it" + UNLOCKED,
					"Remove the final modifier (in Kotlin, declare it open, or use the kotlin-spring "
							+ "compiler plugin).");
		}
		if (CoroutineMethods.takesContinuation(method) && !CoroutineMethods.isCoroutine(method)) {
			throw invalid(method,
					"it is a Kotlin suspend function (its last parameter is a Continuation), whose body "
							+ "runs after the call returns unless Spring invokes it as a coroutine, so the lock "
							+ "would be released before the work",
					"Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor and org.jetbrains.kotlin:kotlin-reflect "
							+ "to the class path: the lock is then held for the whole suspend function.");
		}
	}

	private static InvalidLockDefinitionException invalid(Method method, String problem, String action) {
		return new InvalidLockDefinitionException(method, problem, action, null);
	}

}
