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

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.testing.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InvalidLockDefinitionFailureAnalyzer}: a malformed annotation that
 * failed startup is reported as a description naming the method and what is wrong, and an
 * action.
 */
class InvalidLockDefinitionFailureAnalyzerTests {

	private final InvalidLockDefinitionFailureAnalyzer analyzer = new InvalidLockDefinitionFailureAnalyzer();

	@Test
	void privateMethodIsDescribedWithWhatToDo() {
		LockTestContexts.withSharedRedis().withBean(PrivateMethod.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = this.analyzer.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.isEqualTo("Invalid @DistributedLock on " + PrivateMethod.class.getName()
						+ ".work(String): it is private, and Spring's proxies never intercept private methods, so it "
						+ "would run without its lock.");
			assertThat(analysis.getAction())
				.isEqualTo("Make it public and call it through the bean (from another bean, not from the same one).");
			assertThat(analysis.getCause()).isInstanceOf(InvalidLockDefinitionException.class);
		});
	}

	@Test
	void unknownParameterIsDescribedWithWhatToDo() {
		LockTestContexts.withSharedRedis().withBean(MisspeltParameter.class).run((context) -> {
			FailureAnalysis analysis = this.analyzer.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("Invalid @DistributedLock on "
					+ MisspeltParameter.class.getName() + ".work(String): the key expression \"'sku:' + #skuid\" uses "
					+ "#skuid, which is not a parameter of the method; known variables are [a0, p0, root, skuId, "
					+ "this].");
			assertThat(analysis.getAction())
				.isEqualTo("Check the spelling of #skuid, or use one of the known variables.");
		});
	}

	@Test
	void messageOfTheExceptionHasBothParts() {
		LockTestContexts.withSharedRedis().withBean(MisspeltParameter.class).run((context) -> {
			FailureAnalysis analysis = this.analyzer.analyze(context.getStartupFailure());
			assertThat(analysis.getCause()).hasMessage(analysis.getDescription() + " " + analysis.getAction());
		});
	}

	@Test
	void otherFailuresAreLeftToOtherAnalyzers() {
		LockTestContexts.withSharedRedis().withPropertyValues("distlock.renewal.lease=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(this.analyzer.analyze(context.getStartupFailure())).isNull();
		});
	}

	static class PrivateMethod {

		@DistributedLock(key = "#id")
		private void work(String id) {
		}

	}

	static class MisspeltParameter {

		@DistributedLock("'sku:' + #skuid")
		public void work(String skuId) {
		}

	}

}
