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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.distlock.LockClient;
import dev.distlock.LockContext;
import dev.distlock.LockKeyQuoting;
import dev.distlock.LockRelease;
import dev.distlock.aop.LockReturnTypes.Kind;
import dev.distlock.reactive.ReactiveLockClient;

/**
 * Runs {@link dev.distlock.DistributedLock @DistributedLock} methods under their lock:
 * evaluates the key (or the keys, locked together through
 * {@link LockClient#lock(java.util.Collection, dev.distlock.LockOptions)}) when the
 * method is called, then hands the call to the class that locks methods of its return
 * type (only blocking methods lock several keys):
 * <ul>
 * <li>{@code BlockingLockedCalls}: acquires through the {@link LockClient}, invokes the
 * method with the lock as the {@link LockContext#current() current} one and inside the
 * {@linkplain dev.distlock.LockHandle#observation() observation of the hold}, and
 * releases the lock however the method ends;</li>
 * <li>{@code PublisherLockedCalls} ({@code Mono}, {@code Flux}) and
 * {@code CompletionStageLockedCalls} ({@code CompletionStage},
 * {@code CompletableFuture}): acquire through the {@link ReactiveLockClient} without
 * blocking, invoke the method once the lock is held, and hold it until the work the
 * method returned ends; the reactive client makes no observations.</li>
 * </ul>
 * If the lock is not acquired, or Redis is unavailable, the method is not invoked: the
 * lock's {@link LockFailurePolicy} decides whether the caller gets the exception (the
 * default), an empty value, or what the fallback method returns.
 * <p>
 * Kotlin {@code suspend} functions and methods returning a {@code Flow} are locked
 * through the {@link ReactiveLockClient} too ({@link CoroutineLocking}).
 */
public class DistributedLockInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(DistributedLockInterceptor.class);

	private final LockDefinitionSource definitions;

	private final LockKeyEvaluator keyEvaluator;

	private final Map<Method, Kind> kinds = new ConcurrentHashMap<>();

	private final BlockingLockedCalls blocking;

	private final Supplier<PublisherLockedCalls> publishers;

	private final Supplier<CompletionStageLockedCalls> completionStages;

	private final @Nullable CoroutineLocking coroutines;

	/**
	 * Creates an interceptor of methods that do their work before they return.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client) {
		this(definitions, keyEvaluator, client, () -> {
			throw new IllegalStateException("This interceptor has no ReactiveLockClient to lock methods that "
					+ "return Mono, Flux or CompletionStage: create it with one");
		});
	}

	/**
	 * Creates an interceptor.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 * @param reactiveClient supplies the client that locks methods returning
	 * {@code Mono}, {@code Flux} or {@code CompletionStage}, or a Kotlin {@code suspend}
	 * function or {@code Flow}, on the first call of one
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client, Supplier<ReactiveLockClient> reactiveClient) {
		this(definitions, keyEvaluator, client, reactiveClient, LockRelease.ON_RETURN, false);
	}

	/**
	 * Creates an interceptor with the release and lease-loss policies of blocking
	 * methods.
	 * @param definitions finds the lock of each method
	 * @param keyEvaluator evaluates lock keys
	 * @param client supplies the lock client on first use
	 * @param reactiveClient supplies the client that locks methods returning
	 * {@code Mono}, {@code Flux} or {@code CompletionStage}, or a Kotlin {@code suspend}
	 * function or {@code Flow}, on the first call of one
	 * @param defaultRelease when the locks of methods whose annotation leaves
	 * {@link dev.distlock.DistributedLock#release()} at {@link LockRelease#DEFAULT} are
	 * released ({@code distlock.release}); {@code DEFAULT} means
	 * {@link LockRelease#ON_RETURN}
	 * @param interruptOnLeaseLost whether the thread running a blocking locked method is
	 * interrupted when its lease is found lost ({@code distlock.interrupt-on-lease-lost})
	 */
	public DistributedLockInterceptor(LockDefinitionSource definitions, LockKeyEvaluator keyEvaluator,
			Supplier<LockClient> client, Supplier<ReactiveLockClient> reactiveClient, LockRelease defaultRelease,
			boolean interruptOnLeaseLost) {
		this.definitions = definitions;
		this.keyEvaluator = keyEvaluator;
		LockFailureHandler failureHandler = new LockFailureHandler();
		this.blocking = new BlockingLockedCalls(client, failureHandler, defaultRelease, interruptOnLeaseLost);
		// Created on the first call of a reactive method: they need Reactor
		Supplier<ReactiveLockedCalls> reactive = SingletonSupplier
			.of(() -> new ReactiveLockedCalls(SingletonSupplier.of(reactiveClient), failureHandler));
		this.publishers = SingletonSupplier.of(() -> new PublisherLockedCalls(reactive.get()));
		this.completionStages = SingletonSupplier.of(() -> new CompletionStageLockedCalls(reactive.get()));
		this.coroutines = CoroutineMethods.SUPPORTED ? new CoroutineLocking(reactive) : null;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockDefinition definition = this.definitions.find(invocation.getMethod(), targetClass);
		if (definition == null) {
			return invocation.proceed();
		}
		if (definition.isMultiKey()) {
			List<String> keys = this.keyEvaluator.evaluateAll(definition, invocation.getArguments(), target,
					targetClass);
			if (logger.isTraceEnabled()) {
				logger.trace("Lock keys of " + definition.method() + " are "
						+ keys.stream().map(LockKeyQuoting::quote).toList());
			}
			return this.blocking.invoke(definition, invocation, keys);
		}
		String key = this.keyEvaluator.evaluate(definition, invocation.getArguments(), target, targetClass);
		if (logger.isTraceEnabled()) {
			logger.trace("Lock key of " + definition.method() + " is " + LockKeyQuoting.quote(key));
		}
		if (this.coroutines != null && CoroutineMethods.isCoroutine(definition.method())) {
			return this.coroutines.invoke(definition, key, invocation);
		}
		return switch (this.kinds.computeIfAbsent(definition.method(), LockReturnTypes::kindOf)) {
			case BLOCKING -> this.blocking.invoke(definition, invocation, key);
			case MONO -> this.publishers.get().invoke(definition, invocation, key, false);
			case FLUX -> this.publishers.get().invoke(definition, invocation, key, true);
			case COMPLETION_STAGE -> this.completionStages.get().invoke(definition, invocation, key);
		};
	}

}
