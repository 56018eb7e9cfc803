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
import java.time.Duration;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.PropertyResolver;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockKind;
import dev.distlock.LockRelease;
import dev.distlock.aop.LockDefinition.LeaseMode;

/**
 * Finds and parses the {@link DistributedLock @DistributedLock} of a method, once per
 * method and target class; "no annotation" is cached too. Parsing resolves {@code ${...}}
 * placeholders, parses the durations ({@link DistributedLock#AUTO_RENEW} as a lease time
 * means auto-renewal), checks the key expression or expressions
 * ({@link LockKeyAttributes}) and the return type, looks up the fallback method, checks
 * the mode and permits ({@code LockKindAttributes}), names the lock after its method
 * unless the annotation names it, and throws {@link InvalidLockDefinitionException} on
 * any problem so that it surfaces at startup.
 */
public class LockDefinitionSource {

	private static final Object NO_LOCK = new Object();

	private final Map<MethodClassKey, Object> definitions = new ConcurrentHashMap<>(256);

	private final LockKeyEvaluator keyEvaluator;

	private final PropertyResolver placeholders;

	/**
	 * Creates a source.
	 * @param keyEvaluator checks key expressions
	 * @param placeholders resolves {@code ${...}} placeholders in the annotation's
	 * attributes
	 */
	public LockDefinitionSource(LockKeyEvaluator keyEvaluator, PropertyResolver placeholders) {
		this.keyEvaluator = keyEvaluator;
		this.placeholders = placeholders;
	}

	/**
	 * Returns the lock of a method called on a target class.
	 * @param method the invoked method
	 * @param targetClass the class of the target, or {@code null} if unknown
	 * @return the lock, or {@code null} if the method is not annotated
	 * @throws InvalidLockDefinitionException if the annotation is malformed
	 */
	public @Nullable LockDefinition find(Method method, @Nullable Class<?> targetClass) {
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		Object definition = this.definitions.get(cacheKey);
		if (definition == null) {
			LockDefinition parsed = parse(method, targetClass);
			definition = (parsed != null) ? parsed : NO_LOCK;
			this.definitions.put(cacheKey, definition);
		}
		return (definition != NO_LOCK) ? (LockDefinition) definition : null;
	}

	private @Nullable LockDefinition parse(Method method, @Nullable Class<?> targetClass) {
		Method specificMethod = AopUtils.getMostSpecificMethod(method, targetClass);
		if (CoroutineMethods.isSuspendImplementation(specificMethod)) {
			return null;
		}
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specificMethod, DistributedLock.class);
		if (annotation == null && specificMethod != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		}
		if (annotation == null) {
			return null;
		}
		InterceptableMethods.check(specificMethod);
		LockKind kind = LockKindAttributes.read(specificMethod, annotation);
		Class<?> resolvedClass = (targetClass != null) ? targetClass : method.getDeclaringClass();
		LockKeyAttributes.Keys keys = new LockKeyAttributes(this.keyEvaluator,
				(attribute, value) -> resolve(specificMethod, attribute, value))
			.read(specificMethod, resolvedClass, annotation);
		if (!CoroutineMethods.isCoroutine(specificMethod)) {
			LockReturnTypes.check(specificMethod); // a coroutine's Flow is locked while
													// collected
		}
		Duration waitTime = duration(specificMethod, "waitTime", annotation.waitTime(), true);
		String leaseTime = resolve(specificMethod, "leaseTime", annotation.leaseTime()).trim();
		boolean autoRenew = leaseTime.equals(DistributedLock.AUTO_RENEW);
		Duration fixedLease = autoRenew ? null
				: parseDuration(specificMethod, "leaseTime", annotation.leaseTime(), leaseTime, false);
		LeaseMode leaseMode = autoRenew ? LeaseMode.AUTO_RENEW
				: (fixedLease != null) ? LeaseMode.FIXED : LeaseMode.DEFAULT;
		Duration minHoldTime = duration(specificMethod, "minHoldTime", annotation.minHoldTime(), true);
		LockFailurePolicy failurePolicy = LockFailurePolicy.of(specificMethod, resolvedClass, annotation);
		String name = resolve(specificMethod, "name", annotation.name()).trim();
		LockRelease release = annotation.release();
		if (release == LockRelease.AFTER_TRANSACTION && (CoroutineMethods.isCoroutine(specificMethod)
				|| LockReturnTypes.kindOf(specificMethod) != LockReturnTypes.Kind.BLOCKING)) {
			throw new InvalidLockDefinitionException(specificMethod,
					"release = AFTER_TRANSACTION is for methods that do their work before they return, but this one "
							+ "returns " + specificMethod.getReturnType().getSimpleName()
							+ ": its work runs after the call, outside the caller's thread-bound transaction",
					"Remove release = AFTER_TRANSACTION, or make the method blocking.", null);
		}
		return new LockDefinition(specificMethod, keys.keyExpression(), waitTime, leaseMode, fixedLease, minHoldTime,
				failurePolicy, name.isEmpty() ? LockDefinition.defaultName(specificMethod) : name, kind.mode(),
				kind.permits(), keys.keyExpressions(), release);
	}

	/**
	 * Returns the names of the locks found so far, sorted.
	 * @return the names
	 */
	public SortedSet<String> names() {
		SortedSet<String> names = new TreeSet<>();
		for (Object definition : this.definitions.values()) {
			if (definition instanceof LockDefinition lock) {
				names.add(lock.name());
			}
		}
		return names;
	}

	private @Nullable Duration duration(Method method, String attribute, String value, boolean zeroAllowed) {
		return parseDuration(method, attribute, value, resolve(method, attribute, value).trim(), zeroAllowed);
	}

	private @Nullable Duration parseDuration(Method method, String attribute, String value, String resolved,
			boolean zeroAllowed) {
		if (resolved.isEmpty()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLockDefinitionException(method, attribute + " \"" + value + "\" is not a duration",
					"Use a value such as \"500ms\", \"5s\", \"1m\" or \"PT5S\"" + autoRenewHint(attribute) + ".", ex);
		}
		if (duration.isNegative() || (!zeroAllowed && duration.toMillis() < 1)) {
			throw new InvalidLockDefinitionException(method,
					attribute + " \"" + value + "\" is " + (duration.isNegative() ? "negative" : "shorter than 1ms"),
					"Set " + attribute + " to " + (zeroAllowed ? "zero or more" : "at least 1ms")
							+ autoRenewHint(attribute) + ".",
					null);
		}
		return duration;
	}

	private static String autoRenewHint(String attribute) {
		return attribute.equals("leaseTime")
				? ", or \"" + DistributedLock.AUTO_RENEW + "\" to renew the lease while " + "the method runs" : "";
	}

	private String resolve(Method method, String attribute, String value) {
		try {
			return this.placeholders.resolveRequiredPlaceholders(value);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLockDefinitionException(method,
					attribute + " \"" + value + "\" has a placeholder that cannot be resolved: " + ex.getMessage(),
					"Define the property, or give the placeholder a default, as in ${name:default}.", ex);
		}
	}

}
