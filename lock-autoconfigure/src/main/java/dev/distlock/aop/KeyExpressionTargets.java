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
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

/**
 * Finds, ahead of time, the types whose methods a key expression calls by reflection
 * straight on a parameter or a bean: the parameter's declared type in
 * {@code #request.gender()}, {@code #order.id} or {@code #p0.id}, the bean's type in
 * {@code @keys.prefix()}. What such a call returns is only known when it runs, so further
 * steps ({@code #order.customer.id}) are not followed.
 */
final class KeyExpressionTargets {

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	private final Method method;

	private final @Nullable String[] parameterNames;

	private final ConfigurableBeanFactory beanFactory;

	private final Set<Class<?>> targets = new LinkedHashSet<>();

	private KeyExpressionTargets(Method method, ConfigurableBeanFactory beanFactory) {
		this.method = method;
		String[] names = new DefaultParameterNameDiscoverer().getParameterNames(method);
		this.parameterNames = (names != null) ? names : new String[0];
		this.beanFactory = beanFactory;
	}

	/**
	 * Finds the types a key expression calls methods of.
	 * @param method the locked method
	 * @param expression the key expression, with its {@code ${...}} placeholders
	 * @param beanFactory resolves the placeholders and the types of referenced beans
	 * @return the types, none if the expression does not parse (the application then
	 * fails at startup with the reason)
	 */
	static Set<Class<?>> find(Method method, String expression, ConfigurableBeanFactory beanFactory) {
		KeyExpressionTargets targets = new KeyExpressionTargets(method, beanFactory);
		try {
			String resolved = beanFactory.resolveEmbeddedValue(expression);
			if (resolved != null) {
				targets.visit(parser.parseRaw(resolved).getAST());
			}
		}
		catch (ParseException | IllegalArgumentException ex) {
			// Reported at startup by LockDefinitionSource, with the method and what to
			// do.
		}
		return targets.targets;
	}

	private void visit(SpelNode node) {
		if (node instanceof CompoundExpression && node.getChildCount() > 1) {
			Class<?> target = typeOf(node.getChild(0));
			if (target != null && !target.isPrimitive()) {
				this.targets.add(target);
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			visit(node.getChild(i));
		}
	}

	private @Nullable Class<?> typeOf(SpelNode node) {
		if (node instanceof BeanReference bean && !bean.getName().startsWith("&")) {
			Class<?> type = this.beanFactory.containsBean(bean.getName()) ? this.beanFactory.getType(bean.getName())
					: null;
			return (type != null) ? ClassUtils.getUserClass(type) : null;
		}
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			for (int i = 0; i < this.method.getParameterCount(); i++) {
				if (name.equals("p" + i) || name.equals("a" + i)
						|| (i < this.parameterNames.length && name.equals(this.parameterNames[i]))) {
					return this.method.getParameterTypes()[i];
				}
			}
		}
		return null;
	}

}
