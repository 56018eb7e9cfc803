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
