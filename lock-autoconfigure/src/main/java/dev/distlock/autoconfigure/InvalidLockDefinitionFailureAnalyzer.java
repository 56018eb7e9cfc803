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

package dev.distlock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.distlock.InvalidLockDefinitionException;

/**
 * Reports a malformed {@link dev.distlock.DistributedLock @DistributedLock} that failed
 * startup as what is wrong with which method and what to do, instead of the stack trace
 * of the bean creation that found it. Registered in {@code META-INF/spring.factories},
 * where Spring Boot looks for failure analyzers.
 */
class InvalidLockDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockDefinitionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockDefinitionException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
