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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockKind;
import dev.distlock.LockMode;

/**
 * The key expressions of the {@link dev.distlock.DistributedLock @DistributedLock}
 * methods checked so far, each with the first method that locks it and how: a later
 * method that locks the same expression (the same text once placeholders are resolved and
 * surrounding blanks trimmed) in another way fails. Redis keeps exclusive locks,
 * read-write locks and semaphores in different structures, and counts a semaphore's
 * holders against one size, so an exclusive and a shared use of one key, or two semaphore
 * sizes, would fail on the first call that meets the other; this finds those written in
 * the same words at startup. Keys written differently that evaluate to the same key are
 * still refused by the lock client when they meet.
 */
final class LockKeyKinds {

	private final Map<String, LockDefinition> firstByExpression = new ConcurrentHashMap<>();

	/**
	 * Records how a method locks its key expression, or each of its key expressions.
	 * @param definition the method's lock
	 * @throws InvalidLockDefinitionException if an earlier method locks the same
	 * expression in another way, naming both methods and both kinds
	 */
	void register(LockDefinition definition) {
		// Each key of a lock of several keys is an exclusive lock of its own.
		List<String> expressions = definition.isMultiKey() ? definition.keyExpressions()
				: List.of(definition.keyExpression());
		for (String expression : expressions) {
			register(expression.trim(), definition);
		}
	}

	private void register(String expression, LockDefinition definition) {
		LockDefinition first = this.firstByExpression.putIfAbsent(expression, definition);
		if (first == null || first.method().equals(definition.method())) {
			return;
		}
		LockKind kind = kindOf(definition);
		LockKind firstKind = kindOf(first);
		if (kind.sharesKeyWith(firstKind)) {
			return;
		}
		String key = "its key expression \"" + expression + "\" is locked";
		if (kind.permits() > 1 && firstKind.permits() > 1) {
			throw new InvalidLockDefinitionException(definition.method(),
					key + " with " + LockKindAttributes.attributes(kind) + " here and with "
							+ LockKindAttributes.attributes(firstKind) + " by " + describe(first.method()),
					"Every method that locks a key must give the same permits, because all its holders are "
							+ "counted against one size. Give both methods the same permits, or use different keys.",
					null);
		}
		throw new InvalidLockDefinitionException(definition.method(),
				key + " as " + describe(kind) + " here and as " + describe(firstKind) + " by "
						+ describe(first.method()),
				"Redis keeps exclusive locks, read-write locks and semaphores in different structures, so one key "
						+ "cannot be locked in two of these ways. Lock it the same way in both methods, or use "
						+ "different keys.",
				null);
	}

	private static LockKind kindOf(LockDefinition definition) {
		return new LockKind(definition.mode(), definition.permits());
	}

	private static String describe(LockKind kind) {
		return (kind.mode() == LockMode.EXCLUSIVE && kind.permits() == 1) ? kind.structure()
				: kind.structure() + " (" + LockKindAttributes.attributes(kind) + ")";
	}

	private static String describe(Method method) {
		String parameters = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return method.getDeclaringClass().getName() + "." + method.getName() + "(" + parameters + ")";
	}

}
