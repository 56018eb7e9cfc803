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

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.convert.ConversionFailedException;

/**
 * Reports a {@code distlock.*} duration property that is not a duration (such as
 * {@code distlock.wait-time=5 seconds}) with the forms a duration takes, where Spring
 * Boot's own report only says that the text could not be converted. Registered in
 * {@code META-INF/spring.factories}, ahead of Spring Boot's analyzer of binding failures;
 * any other binding failure is left to it.
 */
class DurationPropertyFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

	/** The forms of a duration, as the action states them. */
	static final String FORMS = "a number and a unit, such as 500ms, 5s, 2m, 1h or 1d (units ns, us, ms, s, m, h, d; "
			+ "a number alone counts as milliseconds), or ISO-8601, such as PT5S or PT1M30S";

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = cause.getName().toString();
		if (!name.startsWith("distlock.") || !isDurationConversion(cause)) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		String value = (property != null) ? String.valueOf(property.getValue()) : "(unknown)";
		String origin = (property != null && property.getOrigin() != null) ? " (" + property.getOrigin() + ")" : "";
		return new FailureAnalysis("Property " + name + " is not a duration: its value \"" + value + "\"" + origin
				+ " could not be read as one.", "Write " + name + " as " + FORMS + ".", cause);
	}

	private static boolean isDurationConversion(Throwable failure) {
		for (Throwable each = failure; each != null; each = each.getCause()) {
			if (each instanceof ConversionFailedException conversion
					&& Duration.class.equals(conversion.getTargetType().getType())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Comes ahead of Spring Boot's analyzer of binding failures, which has no order.
	 * @return {@link Ordered#HIGHEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
