package dev.distlock.sample.redis;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a startup without any Redis, configured or embedded, as what is missing and
 * what to do, instead of a stack trace. Registered in {@code META-INF/spring.factories},
 * where Spring Boot looks for failure analyzers.
 */
class EmbeddedRedisUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedRedisUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedRedisUnavailableException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
