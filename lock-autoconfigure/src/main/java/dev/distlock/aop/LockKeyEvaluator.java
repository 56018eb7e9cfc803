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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.util.StringUtils;

import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockKeyExpressionException;
import dev.distlock.LockKeyQuoting;

/**
 * Parses key expressions once per method and target class, and evaluates them for each
 * call in a {@link MethodBasedEvaluationContext}: parameters by name ({@code #skuId}) or
 * index ({@code #p0}, {@code #a0}), beans as {@code @name}, and {@link LockKeyRootObject}
 * as {@code #root}.
 */
public class LockKeyEvaluator extends CachedExpressionEvaluator {

	private final Map<ExpressionKey, Expression> expressions = new ConcurrentHashMap<>(64);

	private final @Nullable BeanFactoryResolver beanResolver;

	/**
	 * Creates an evaluator.
	 * @param beanFactory resolves {@code @name} bean references, or {@code null} to allow
	 * none
	 */
	public LockKeyEvaluator(@Nullable BeanFactory beanFactory) {
		this.beanResolver = (beanFactory != null) ? new BeanFactoryResolver(beanFactory) : null;
	}

	/**
	 * Parses the expression of a method and checks that every {@code #variable} it uses
	 * is a parameter of the method.
	 * @param method the annotated method
	 * @param targetClass the class the method is called on
	 * @param expression the key expression
	 * @throws InvalidLockDefinitionException if the expression does not parse or names an
	 * unknown variable
	 */
	public void check(Method method, Class<?> targetClass, String expression) {
		Expression parsed;
		try {
			parsed = parse(method, targetClass, expression);
		}
		catch (ParseException ex) {
			throw new InvalidLockDefinitionException(method,
					"the key expression \"" + expression + "\" does not parse: " + ex.getMessage(),
					"Correct the SpEL expression; quote literal text, as in key = \"'lock:sku:' + #skuId\".", ex);
		}
		new KeyExpressionVariables(method, getParameterNameDiscoverer().getParameterNames(method)).check(parsed);
	}

	/**
	 * Evaluates the key of one call.
	 * @param definition the lock of the called method
	 * @param args the call's arguments
	 * @param target the object the method is called on
	 * @param targetClass the class of the target
	 * @return the key, never blank
	 * @throws LockKeyExpressionException if the expression fails, or yields null or a
	 * blank string
	 */
	public String evaluate(LockDefinition definition, @Nullable Object[] args, @Nullable Object target,
			Class<?> targetClass) {
		return evaluate(definition.method(), definition.keyExpression(), context(definition, args, target, targetClass),
				targetClass);
	}

	/**
	 * Evaluates the keys of one call of a method that locks several keys, each expression
	 * in turn.
	 * @param definition the lock of the called method, with
	 * {@link LockDefinition#keyExpressions() key expressions}
	 * @param args the call's arguments
	 * @param target the object the method is called on
	 * @param targetClass the class of the target
	 * @return the keys, in the order of the expressions, none blank
	 * @throws LockKeyExpressionException if an expression fails, or yields null or a
	 * blank string
	 */
	public List<String> evaluateAll(LockDefinition definition, @Nullable Object[] args, @Nullable Object target,
			Class<?> targetClass) {
		MethodBasedEvaluationContext context = context(definition, args, target, targetClass);
		List<String> keys = new ArrayList<>(definition.keyExpressions().size());
		for (String expression : definition.keyExpressions()) {
			keys.add(evaluate(definition.method(), expression, context, targetClass));
		}
		return keys;
	}

	private MethodBasedEvaluationContext context(LockDefinition definition, @Nullable Object[] args,
			@Nullable Object target, Class<?> targetClass) {
		Method method = definition.method();
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
				new LockKeyRootObject(method, args, target, targetClass), method, args, getParameterNameDiscoverer());
		if (this.beanResolver != null) {
			context.setBeanResolver(this.beanResolver);
		}
		return context;
	}

	private String evaluate(Method method, String expression, MethodBasedEvaluationContext context,
			Class<?> targetClass) {
		Object value;
		try {
			value = parse(method, targetClass, expression).getValue(context);
		}
		catch (EvaluationException ex) {
			throw new LockKeyExpressionException(method, expression, "failed: " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			// A method the expression calls threw; SpEL passes that exception on as it
			// is. Its message may quote an argument: escaped and cut like a key.
			String message = ex.getMessage();
			throw new LockKeyExpressionException(method, expression,
					"threw " + ex.getClass().getName() + ((message != null) ? " " + LockKeyQuoting.quote(message) : ""),
					ex);
		}
		if (value == null) {
			throw new LockKeyExpressionException(method, expression, "yielded null", null);
		}
		String key = value.toString();
		if (!StringUtils.hasText(key)) {
			throw new LockKeyExpressionException(method, expression, "yielded a blank key " + LockKeyQuoting.quote(key),
					null);
		}
		return key;
	}

	private Expression parse(Method method, Class<?> targetClass, String expression) {
		return getExpression(this.expressions, new AnnotatedElementKey(method, targetClass), expression);
	}

}
