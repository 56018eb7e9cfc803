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

package dev.distlock.testing;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import dev.distlock.InvalidLockDefinitionException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Assertions on application contexts that must fail to start because of a malformed
 * {@link dev.distlock.DistributedLock @DistributedLock}.
 */
public final class StartupFailures {

	private StartupFailures() {
	}

	/**
	 * Asserts that the context failed with an {@link InvalidLockDefinitionException}
	 * among the causes, whose message names the method and the problem.
	 * @param context the context
	 * @param method text naming the method, such as {@code "Type.work(String)"}
	 * @param problem text describing the problem
	 */
	public static void assertInvalidLockDefinition(AssertableApplicationContext context, String method,
			String problem) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		while (failure != null && !(failure instanceof InvalidLockDefinitionException)) {
			failure = failure.getCause();
		}
		assertThat(failure).as("InvalidLockDefinitionException among the causes of the startup failure")
			.isInstanceOf(InvalidLockDefinitionException.class)
			.hasMessageContaining(method)
			.hasMessageContaining(problem);
	}

}
