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

import java.util.concurrent.atomic.AtomicReference;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * Runs Spring's ahead-of-time processing on an application context, as the build of a
 * native image does ({@code spring-boot:process-aot}): on the bean definitions of a
 * context that is prepared but never refreshed, so no bean that connects to anything is
 * created.
 */
public final class AheadOfTimeHints {

	private AheadOfTimeHints() {
	}

	/**
	 * Processes the context of a runner ahead of time.
	 * @param runner the runner whose context to process
	 * @return the runtime hints the processing generated, for the reachability metadata
	 * of a native image
	 */
	public static RuntimeHints of(ApplicationContextRunner runner) {
		AtomicReference<RuntimeHints> hints = new AtomicReference<>();
		runner.prepare((context) -> {
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(AheadOfTimeHints.class)), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator()
				.processAheadOfTime(context.getSourceApplicationContext(GenericApplicationContext.class), generation);
			hints.set(generation.getRuntimeHints());
		});
		return hints.get();
	}

}
