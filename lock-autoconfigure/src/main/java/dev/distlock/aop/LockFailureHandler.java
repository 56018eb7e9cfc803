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

import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.distlock.DistributedLockException;
import dev.distlock.LockFailureAction;

/**
 * Carries out a lock's {@link LockFailurePolicy} when its lock was not acquired or Redis
 * was unavailable: throws the failure, skips the method (returning the {@link SkipValues
 * empty value} of its return type), or calls its {@link FallbackMethod}. The locked
 * method itself is never invoked.
 */
final class LockFailureHandler {

	private static final Log logger = LogFactory.getLog(LockFailureHandler.class);

	/**
	 * Handles a failure to acquire the lock of a call.
	 * @param definition the lock of the called method
	 * @param invocation the call
	 * @param failure a {@link dev.distlock.LockNotAcquiredException} or
	 * {@link dev.distlock.LockUnavailableException}
	 * @return what the call returns instead
	 * @throws Throwable the failure itself for {@link LockFailureAction#THROW}, or what
	 * the fallback method threw
	 */
	@Nullable Object handle(LockDefinition definition, MethodInvocation invocation, DistributedLockException failure)
			throws Throwable {
		return handle(definition, invocation, failure, SkipValues.emptyValueOf(definition.method().getReturnType()));
	}

	/**
	 * Handles a failure to acquire the lock of a call, with the given value for a skipped
	 * call.
	 * @param definition the lock of the called method
	 * @param invocation the call
	 * @param failure a {@link dev.distlock.LockNotAcquiredException} or
	 * {@link dev.distlock.LockUnavailableException}
	 * @param skipped what a skipped call returns
	 * @return what the call returns instead
	 * @throws Throwable the failure itself for {@link LockFailureAction#THROW}, or what
	 * the fallback method threw
	 */
	@Nullable Object handle(LockDefinition definition, MethodInvocation invocation, DistributedLockException failure,
			@Nullable Object skipped) throws Throwable {
		LockFailurePolicy policy = definition.failurePolicy();
		LockFailureAction action = policy.actionFor(failure);
		if (action == LockFailureAction.SKIP) {
			if (logger.isDebugEnabled()) {
				logger.debug("Skipped " + definition.method() + ": " + failure.getMessage());
			}
			return skipped;
		}
		if (action == LockFailureAction.FALLBACK) {
			FallbackMethod fallback = policy.fallback();
			if (fallback == null) {
				throw new IllegalStateException("FALLBACK without a fallback method on " + definition.method());
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Calling fallback " + fallback.getMethod() + " instead of " + definition.method() + ": "
						+ failure.getMessage());
			}
			return fallback.invoke(invocation.getThis(), invocation.getArguments(), failure);
		}
		throw failure;
	}

}
