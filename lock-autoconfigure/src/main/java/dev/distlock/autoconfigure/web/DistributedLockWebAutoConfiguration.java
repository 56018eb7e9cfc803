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

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;

import dev.distlock.web.LockProblemDetails;
import dev.distlock.web.LockProblemDetailsExceptionHandler;
import dev.distlock.web.OutageWarnings;

/**
 * Auto-configures the HTTP answers to lock failures: in web applications the
 * {@link LockProblemDetails} they are built with, and in Spring MVC and WebFlux
 * applications a {@link LockProblemDetailsExceptionHandler} that answers with them and
 * logs the first {@code 503} of each lock name and outage as a warning
 * ({@link OutageWarnings}, a lock listener that learns when an outage ends), unless
 * {@code distlock.web.problem-details.enabled=false}. The application can define either
 * bean to replace ours. The handler answers only distlock's exceptions, so it works the
 * same whether or not Spring Boot answers Spring's own exceptions with problem details
 * ({@code spring.mvc.problemdetails.enabled},
 * {@code spring.webflux.problemdetails.enabled}).
 */
@AutoConfiguration
@ConditionalOnClass({ ProblemDetail.class, ControllerAdvice.class })
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockWebProperties.class)
public final class DistributedLockWebAutoConfiguration {

	private static final String ENABLED = "distlock.web.problem-details.enabled";

	@Bean
	@ConditionalOnMissingBean
	LockProblemDetails distributedLockProblemDetails(DistributedLockWebProperties properties) {
		return new LockProblemDetails(properties.getRetryAfter(), properties.isIncludeKey());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
	OutageWarnings distributedLockOutageWarnings() {
		return new OutageWarnings();
	}

	/**
	 * The handler in a Spring MVC application.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(DispatcherServlet.class)
	@ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
	static class ServletConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LockProblemDetailsExceptionHandler distributedLockProblemDetailsExceptionHandler(
				LockProblemDetails distributedLockProblemDetails, OutageWarnings distributedLockOutageWarnings) {
			return new LockProblemDetailsExceptionHandler(distributedLockProblemDetails, distributedLockOutageWarnings);
		}

	}

	/**
	 * The handler in a WebFlux application.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(DispatcherHandler.class)
	@ConditionalOnBooleanProperty(name = ENABLED, matchIfMissing = true)
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LockProblemDetailsExceptionHandler distributedLockProblemDetailsExceptionHandler(
				LockProblemDetails distributedLockProblemDetails, OutageWarnings distributedLockOutageWarnings) {
			return new LockProblemDetailsExceptionHandler(distributedLockProblemDetails, distributedLockOutageWarnings);
		}

	}

}
