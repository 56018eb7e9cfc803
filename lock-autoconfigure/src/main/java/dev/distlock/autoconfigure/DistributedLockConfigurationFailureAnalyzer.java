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

import dev.distlock.DistributedLockConfigurationException;

/**
 * Reports a setup of distlock that failed startup (no lock client, an ambiguous Redis
 * connection, an unsupported Spring Boot) as what is wrong and what to do, instead of a
 * stack trace. Registered in {@code META-INF/spring.factories}, where Spring Boot looks
 * for failure analyzers; it uses only API that Spring Boot 3 has as well, so that it
 * reports an unsupported version there too.
 */
class DistributedLockConfigurationFailureAnalyzer
		extends AbstractFailureAnalyzer<DistributedLockConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DistributedLockConfigurationException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
