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

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;

/**
 * Tells the methods that {@link CoroutineLocking} locks apart from the others: Kotlin
 * {@code suspend} functions and methods returning a {@code kotlinx.coroutines.flow.Flow}.
 * Both are locked only where Spring can invoke them as Reactor publishers, that is with
 * kotlinx-coroutines-reactor and kotlin-reflect on the class path. Refers to no Kotlin or
 * Reactor type, so that it can be asked without them.
 */
final class CoroutineMethods {

	/** The name of a compiled suspend function's last parameter type. */
	static final String CONTINUATION = "kotlin.coroutines.Continuation";

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	/**
	 * Whether coroutines can be locked: Spring's AOP proxies then invoke suspend
	 * functions as a {@code Mono} (or a {@code Flux} for a {@code Flow} result) and await
	 * it.
	 */
	static final boolean SUPPORTED = ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt",
			CoroutineMethods.class.getClassLoader()) && KotlinDetector.isKotlinReflectPresent();

	private CoroutineMethods() {
	}

	/**
	 * Returns whether a method is locked as a coroutine: a suspend function or a method
	 * returning a {@code Flow}, where coroutines are {@link #SUPPORTED}.
	 * @param method the locked method
	 * @return whether {@link CoroutineLocking} runs it
	 */
	static boolean isCoroutine(Method method) {
		return SUPPORTED && (KotlinDetector.isSuspendingFunction(method) || returnsFlow(method));
	}

	/**
	 * Returns whether a method returns a {@code Flow}; for a suspend function, whether
	 * its Kotlin return type is one, as Spring's proxies decide.
	 * @param method the method
	 * @return whether it returns a {@code Flow}
	 */
	static boolean returnsFlow(Method method) {
		return new MethodParameter(method, -1).getParameterType().getName().equals(FLOW);
	}

	/**
	 * Returns whether a method is the static copy of an open suspend function's body that
	 * kotlinc generates ({@code name$suspendImpl}, synthetic, with the function's
	 * annotations): the function calls it, never the proxy, so it is no locked method.
	 * @param method the method
	 * @return whether it is such a copy
	 */
	static boolean isSuspendImplementation(Method method) {
		return method.isSynthetic() && Modifier.isStatic(method.getModifiers())
				&& method.getName().endsWith("$suspendImpl");
	}

	/**
	 * Returns whether the last parameter of a method is a {@code Continuation}, as with
	 * every compiled suspend function.
	 * @param method the method
	 * @return whether it takes a continuation last
	 */
	static boolean takesContinuation(Method method) {
		Class<?>[] parameters = method.getParameterTypes();
		return parameters.length > 0 && parameters[parameters.length - 1].getName().equals(CONTINUATION);
	}

}
