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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Async;

import dev.distlock.InvalidLockDefinitionException;

/**
 * Sorts locked methods by how their work ends, which decides how the lock is held: until
 * the method returns ({@link Kind#BLOCKING}), or until the {@code Mono}, {@code Flux} or
 * {@code CompletionStage} it returns completes. Rejects other methods whose work finishes
 * after they return (a plain {@code Future}, RxJava types, a {@code Publisher} ...): the
 * lock would be released while the work still runs. {@code @Async} methods are
 * {@link Kind#BLOCKING}, whatever they return, since their lock is taken and released
 * inside the executor's thread.
 */
final class LockReturnTypes {

	private static final String MONO = "reactor.core.publisher.Mono";

	private static final String FLUX = "reactor.core.publisher.Flux";

	private LockReturnTypes() {
	}

	/**
	 * Checks that the lock of a method can be held for as long as its work runs.
	 * @param method the locked method
	 * @throws InvalidLockDefinitionException if its work completes after it returns in a
	 * way the lock cannot follow
	 */
	static void check(Method method) {
		Class<?> returnType = method.getReturnType();
		boolean deferred = Future.class.isAssignableFrom(returnType)
				|| ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) != null;
		if (deferred && kindOf(method) == Kind.BLOCKING) {
			throw new InvalidLockDefinitionException(method,
					"it returns " + returnType.getName() + ", whose work "
							+ "completes after the method returns, so the lock would be released too early",
					"Lock a method that does the work before returning, or return Mono, Flux, CompletionStage "
							+ "or CompletableFuture, whose lock is held until they complete.",
					null);
		}
	}

	/**
	 * Returns how the lock of a method is held.
	 * @param method the locked method
	 * @return {@link Kind#BLOCKING} for {@code @Async} methods and methods of any other
	 * return type than {@code Mono}, {@code Flux}, {@code CompletionStage} and
	 * {@code CompletableFuture}
	 */
	static Kind kindOf(Method method) {
		Class<?> returnType = method.getReturnType();
		if (isAsync(method)) {
			return Kind.BLOCKING;
		}
		if (returnType == CompletionStage.class || returnType == CompletableFuture.class) {
			return Kind.COMPLETION_STAGE;
		}
		if (returnType.getName().equals(MONO)) {
			return Kind.MONO;
		}
		return returnType.getName().equals(FLUX) ? Kind.FLUX : Kind.BLOCKING;
	}

	private static boolean isAsync(Method method) {
		return AnnotatedElementUtils.hasAnnotation(method, Async.class)
				|| AnnotatedElementUtils.hasAnnotation(method.getDeclaringClass(), Async.class);
	}

	/**
	 * How the lock of a method is held.
	 */
	enum Kind {

		/** Until the method returns or throws, on the calling thread. */
		BLOCKING,

		/**
		 * Until the {@code Mono} completes, errors or is cancelled, by a
		 * {@link dev.distlock.reactive.ReactiveLockClient}.
		 */
		MONO,

		/**
		 * Until the {@code Flux} completes, errors or is cancelled, by a
		 * {@link dev.distlock.reactive.ReactiveLockClient}.
		 */
		FLUX,

		/**
		 * Until the {@code CompletionStage} completes, or the returned future is
		 * cancelled, by a {@link dev.distlock.reactive.ReactiveLockClient}.
		 */
		COMPLETION_STAGE;

		/**
		 * Returns whether the lock is held by a reactive client.
		 * @return whether it is not {@link #BLOCKING}
		 */
		boolean isReactive() {
			return this != BLOCKING;
		}

	}

}
