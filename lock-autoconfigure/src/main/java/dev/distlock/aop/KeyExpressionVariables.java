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
import java.util.TreeSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

import dev.distlock.InvalidLockDefinitionException;

/**
 * Checks at startup that a key expression only uses variables the call will have:
 * parameter names, {@code #p0}/{@code #a0} style indexes, {@code #root} and
 * {@code #this}. A misspelt parameter would otherwise evaluate to null on every call.
 */
final class KeyExpressionVariables {

	private final Method method;

	private final @Nullable String[] parameterNames;

	private final Set<String> known = new TreeSet<>();

	KeyExpressionVariables(Method method, @Nullable String @Nullable [] parameterNames) {
		this.method = method;
		this.parameterNames = (parameterNames != null) ? parameterNames : new String[0];
		this.known.add("root");
		this.known.add("this");
		for (int i = 0; i < method.getParameterCount(); i++) {
			this.known.add("p" + i);
			this.known.add("a" + i);
		}
		for (String name : this.parameterNames) {
			if (name != null) {
				this.known.add(name);
			}
		}
	}

	void check(Expression expression) {
		if (expression instanceof SpelExpression spel) {
			check(spel.getAST(), expression.getExpressionString());
		}
	}

	private void check(SpelNode node, String expression) {
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			if (!this.known.contains(name)) {
				throw new InvalidLockDefinitionException(this.method,
						"the key expression \"" + expression + "\" uses #" + name
								+ ", which is not a parameter of the method; known variables are " + this.known,
						hint(name), null);
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			check(node.getChild(i), expression);
		}
	}

	private String hint(String name) {
		boolean namesKnown = this.parameterNames.length == this.method.getParameterCount();
		return namesKnown ? "Check the spelling of #" + name + ", or use one of the known variables."
				: "Parameter names are not available: compile with -parameters " + "or use #p0, #p1, ...";
	}

}
