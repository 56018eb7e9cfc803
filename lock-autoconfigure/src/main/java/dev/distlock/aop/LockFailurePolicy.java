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
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import dev.distlock.DistributedLock;
import dev.distlock.DistributedLockException;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockFailureAction;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;

/**
 * What a locked method does when its lock is held elsewhere beyond the wait time, and
 * when Redis cannot be reached. The two are decided apart: skipping a busy lock never
 * means skipping when Redis is down, which would run nothing, or worse, without knowing
 * who holds the lock.
 *
 * @param onNotAcquired the action on {@link LockNotAcquiredException}
 * @param onUnavailable the action on {@link LockUnavailableException}
 * @param fallback the method to call for {@link LockFailureAction#FALLBACK}, present
 * exactly when one of the actions is {@code FALLBACK}
 */
public record LockFailurePolicy(LockFailureAction onNotAcquired, LockFailureAction onUnavailable,
		@Nullable FallbackMethod fallback) {

	/** Throw in both cases: the default. */
	public static final LockFailurePolicy THROW = new LockFailurePolicy(LockFailureAction.THROW,
			LockFailureAction.THROW, null);

	/**
	 * Creates a policy, checking that a fallback method is given exactly when it is used.
	 * @param onNotAcquired the action when the lock is not acquired
	 * @param onUnavailable the action when Redis is unavailable
	 * @param fallback the fallback method, if an action is {@code FALLBACK}
	 */
	public LockFailurePolicy {
		boolean fallsBack = onNotAcquired == LockFailureAction.FALLBACK || onUnavailable == LockFailureAction.FALLBACK;
		Assert.isTrue(fallsBack == (fallback != null), "A fallback method must be given exactly for FALLBACK");
	}

	/**
	 * Returns the action for a failure to acquire.
	 * @param failure a {@link LockNotAcquiredException} or
	 * {@link LockUnavailableException}
	 * @return the action to take
	 */
	public LockFailureAction actionFor(DistributedLockException failure) {
		return (failure instanceof LockUnavailableException) ? this.onUnavailable : this.onNotAcquired;
	}

	/**
	 * Reads the policy of an annotation: {@code fallbackMethod} turns the default
	 * {@code onNotAcquired = THROW} into {@code FALLBACK}, and the fallback method is
	 * looked up on the target class.
	 * @param method the annotated method
	 * @param targetClass the class whose instance the fallback is called on
	 * @param annotation the annotation
	 * @return the policy
	 * @throws InvalidLockDefinitionException if a fallback is asked for without a method,
	 * the method does not fit, or a method is named that no action uses
	 */
	static LockFailurePolicy of(Method method, Class<?> targetClass, DistributedLock annotation) {
		String fallbackName = annotation.fallbackMethod().trim();
		LockFailureAction onNotAcquired = annotation.onNotAcquired();
		LockFailureAction onUnavailable = annotation.onUnavailable();
		if (!fallbackName.isEmpty() && onNotAcquired == LockFailureAction.THROW) {
			onNotAcquired = LockFailureAction.FALLBACK;
		}
		List<Class<? extends DistributedLockException>> fallbackFailures = new ArrayList<>();
		if (onNotAcquired == LockFailureAction.FALLBACK) {
			fallbackFailures.add(LockNotAcquiredException.class);
		}
		if (onUnavailable == LockFailureAction.FALLBACK) {
			fallbackFailures.add(LockUnavailableException.class);
		}
		if (fallbackName.isEmpty()) {
			if (!fallbackFailures.isEmpty()) {
				throw new InvalidLockDefinitionException(method,
						actions(onNotAcquired, onUnavailable) + " needs a fallbackMethod", FallbackMethod.HOW, null);
			}
			return new LockFailurePolicy(onNotAcquired, onUnavailable, null);
		}
		if (fallbackFailures.isEmpty()) {
			throw new InvalidLockDefinitionException(method,
					"fallbackMethod \"" + fallbackName + "\" is never " + "called with "
							+ actions(onNotAcquired, onUnavailable),
					"Remove fallbackMethod, or set onNotAcquired or onUnavailable to FALLBACK.", null);
		}
		FallbackMethod fallback = FallbackMethod.resolve(method, targetClass, fallbackName, fallbackFailures);
		return new LockFailurePolicy(onNotAcquired, onUnavailable, fallback);
	}

	private static String actions(LockFailureAction onNotAcquired, LockFailureAction onUnavailable) {
		return "onNotAcquired = " + onNotAcquired + " and onUnavailable = " + onUnavailable;
	}

}
