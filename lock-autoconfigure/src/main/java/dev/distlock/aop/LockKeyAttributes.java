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
import java.util.function.BinaryOperator;

import org.springframework.util.StringUtils;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;

/**
 * Reads the key attributes of a {@link DistributedLock @DistributedLock}: exactly one of
 * {@link DistributedLock#key() key} and {@link DistributedLock#keys() keys}, each
 * expression with its placeholders resolved and parsed once. Several keys are locked
 * together only as exclusive locks of a method that does its work before it returns:
 * anything else fails at startup with an {@link InvalidLockDefinitionException} naming
 * the method.
 */
final class LockKeyAttributes {

	private final LockKeyEvaluator keyEvaluator;

	/** Resolves the placeholders of an attribute: (attribute name, value) to text. */
	private final BinaryOperator<String> resolver;

	LockKeyAttributes(LockKeyEvaluator keyEvaluator, BinaryOperator<String> resolver) {
		this.keyEvaluator = keyEvaluator;
		this.resolver = resolver;
	}

	/**
	 * Reads and checks the key expressions of a method.
	 * @param method the annotated method, as declared on the target class
	 * @param targetClass the class the method is called on
	 * @param annotation its merged annotation
	 * @return the key expression (for several keys, all of them as one text for messages)
	 * and the expressions of several keys, empty for one key
	 */
	Keys read(Method method, Class<?> targetClass, DistributedLock annotation) {
		String key = this.resolver.apply("key", annotation.key());
		if (annotation.keys().length == 0) {
			if (!StringUtils.hasText(key)) {
				throw new InvalidLockDefinitionException(method, "the key is empty",
						"Give a SpEL key expression, such as key = \"'lock:sku:' + #skuId\", or several with keys = "
								+ "{ ... } to lock them together.",
						null);
			}
			this.keyEvaluator.check(method, targetClass, key);
			return new Keys(key, List.of());
		}
		if (StringUtils.hasText(key)) {
			throw new InvalidLockDefinitionException(method, "it gives both key and keys",
					"Give key for a lock of one key, or keys for several keys locked together, not both.", null);
		}
		// mode and permits with keys are refused by LockKind, which reads them first
		if (LockReturnTypes.kindOf(method).isReactive() || CoroutineMethods.isCoroutine(method)) {
			throw new InvalidLockDefinitionException(method,
					"keys locks several keys together only for methods that do their work before they return, and "
							+ "it returns " + method.getReturnType().getSimpleName(),
					"Lock one key with key, or make the method blocking and lock its keys with keys.", null);
		}
		List<String> expressions = new ArrayList<>(annotation.keys().length);
		for (int i = 0; i < annotation.keys().length; i++) {
			String expression = this.resolver.apply("keys[" + i + "]", annotation.keys()[i]);
			if (!StringUtils.hasText(expression)) {
				throw new InvalidLockDefinitionException(method, "keys[" + i + "] is empty",
						"Give a SpEL key expression for every key, such as \"'lock:account:' + #from\".", null);
			}
			this.keyEvaluator.check(method, targetClass, expression);
			expressions.add(expression);
		}
		return new Keys("{" + String.join(", ", expressions) + "}", expressions);
	}

	/**
	 * The key expressions of a lock.
	 *
	 * @param keyExpression the expression of one key, or all of several as one text
	 * @param keyExpressions the expressions of several keys, empty for one key
	 */
	record Keys(String keyExpression, List<String> keyExpressions) {

	}

}
