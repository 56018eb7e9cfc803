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

package dev.distlock.autoconfigure.web;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration properties of the HTTP answers to lock failures. They validate themselves
 * as Spring Boot binds them, like {@code distlock.*}.
 */
@ConfigurationProperties("distlock.web")
public class DistributedLockWebProperties implements Validator {

	/**
	 * How long clients are asked to wait before they retry a request whose lock was busy
	 * or whose lock service was unavailable: the Retry-After header of those answers, in
	 * whole seconds, rounded up.
	 */
	private Duration retryAfter = Duration.ofSeconds(1);

	/**
	 * Whether the answers name the Redis key of the lock in a "key" property, besides its
	 * name. Keys can hold request data, such as user or order numbers.
	 */
	private boolean includeKey;

	private final ProblemDetails problemDetails = new ProblemDetails();

	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	public void setRetryAfter(Duration retryAfter) {
		this.retryAfter = retryAfter;
	}

	public boolean isIncludeKey() {
		return this.includeKey;
	}

	public void setIncludeKey(boolean includeKey) {
		this.includeKey = includeKey;
	}

	public ProblemDetails getProblemDetails() {
		return this.problemDetails;
	}

	/**
	 * Returns whether {@link #validate} checks objects of the given type: these
	 * properties.
	 * @param type the type of the object to check
	 * @return whether it is checked
	 */
	@Override
	public boolean supports(Class<?> type) {
		return DistributedLockWebProperties.class.isAssignableFrom(type);
	}

	/**
	 * Rejects a {@code Retry-After} that is zero or negative.
	 * @param target these properties
	 * @param errors where to report a value out of range
	 */
	@Override
	public void validate(Object target, Errors errors) {
		Duration value = ((DistributedLockWebProperties) target).getRetryAfter();
		if (value.compareTo(Duration.ZERO) <= 0) {
			errors.rejectValue("retryAfter", "range",
					"distlock.web.retry-after must be more than zero, but is " + DurationStyle.SIMPLE.print(value));
		}
	}

	/**
	 * Problem details for lock failures.
	 */
	public static class ProblemDetails {

		/**
		 * Whether lock failures that reach Spring MVC or WebFlux controllers are answered
		 * with RFC 9457 problem details: 409 for a lock not acquired, 503 for Redis
		 * unavailable, 500 for a lost lease or a failed release.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
