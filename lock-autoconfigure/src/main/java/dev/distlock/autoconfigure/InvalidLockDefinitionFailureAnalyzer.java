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
