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
import java.util.Locale;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.FieldError;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;

import dev.distlock.LockListener;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.web.LockProblemDetails;
import dev.distlock.web.LockProblemDetailsExceptionHandler;
import dev.distlock.web.OutageWarnings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockWebAutoConfiguration}: the handler in Spring MVC and
 * WebFlux applications only, its switch, and the beans an application can define instead.
 */
class DistributedLockWebAutoConfigurationTests {

	private static final AutoConfigurations WEB = AutoConfigurations.of(DistributedLockWebAutoConfiguration.class);

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(WEB);

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(WEB);

	@Test
	void servletApplicationGetsTheHandler() {
		this.servlet.run((context) -> {
			assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class)
				.hasSingleBean(LockProblemDetails.class)
				.as("a lock listener, told when an outage ends")
				.hasSingleBean(OutageWarnings.class)
				.getBean(OutageWarnings.class)
				.isInstanceOf(LockListener.class);
			assertThat(context.getBean(LockProblemDetails.class).retryAfterSeconds()).isOne();
		});
	}

	@Test
	void reactiveApplicationGetsTheHandler() {
		this.reactive.run((context) -> assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void applicationThatIsNotWebGetsNothing() {
		new ApplicationContextRunner().withConfiguration(WEB)
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class)
				.doesNotHaveBean(LockProblemDetails.class)
				.doesNotHaveBean(DistributedLockWebProperties.class));
	}

	@Test
	void servletApplicationWithoutSpringMvcGetsNoHandler() {
		this.servlet.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void reactiveApplicationWithoutWebFluxGetsNoHandler() {
		this.reactive.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void problemDetailsCanBeSwitchedOff() {
		this.servlet.withPropertyValues("distlock.web.problem-details.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class)
				.doesNotHaveBean(OutageWarnings.class)
				.as("for the application's own answers")
				.hasSingleBean(LockProblemDetails.class));
		this.reactive.withPropertyValues("distlock.web.problem-details.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void distlockSwitchedOffGetsNothing() {
		this.servlet.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class)
				.doesNotHaveBean(LockProblemDetails.class));
	}

	@Test
	void applicationHandlerReplacesOurs() {
		this.servlet.withUserConfiguration(OwnHandler.class)
			.run((context) -> assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class)
				.hasBean("ownHandler"));
	}

	@Test
	void applicationProblemDetailsAreUsedByOurHandler() {
		this.servlet.withUserConfiguration(OwnProblemDetails.class).run((context) -> {
			assertThat(context).hasSingleBean(LockProblemDetails.class).hasBean("ownProblemDetails");
			LockNotAcquiredException failure = new LockNotAcquiredException("lock:sku:7", "stock", Duration.ZERO,
					Duration.ZERO);
			ResponseEntity<ProblemDetail> answer = context.getBean(LockProblemDetailsExceptionHandler.class)
				.handleLockNotAcquired(failure, failure, Locale.ROOT);
			assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
			assertThat(answer.getBody()).isNotNull();
			assertThat(answer.getBody().getProperties()).containsEntry("key", "lock:sku:7");
		});
	}

	@Test
	void propertiesSetTheRetryAfter() {
		this.servlet.withPropertyValues("distlock.web.retry-after=2m")
			.run((context) -> assertThat(context.getBean(LockProblemDetails.class).retryAfterSeconds()).isEqualTo(120));
	}

	@Test
	void retryAfterOfZeroFailsBinding() {
		this.servlet.withPropertyValues("distlock.web.retry-after=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(BindValidationException.class,
						(failure) -> assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
							.isInstanceOfSatisfying(FieldError.class, (error) -> {
								assertThat(error.getObjectName() + "." + error.getField())
									.isEqualTo("distlock.web.retryAfter");
								assertThat(error.getRejectedValue()).isEqualTo(Duration.ZERO);
								assertThat(error.getDefaultMessage())
									.isEqualTo("distlock.web.retry-after must be more than zero, but is 0ms");
							}));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHandler {

		@Bean
		LockProblemDetailsExceptionHandler ownHandler() {
			return new LockProblemDetailsExceptionHandler(new LockProblemDetails(Duration.ofSeconds(5), false));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnProblemDetails {

		@Bean
		LockProblemDetails ownProblemDetails() {
			return new LockProblemDetails(Duration.ofSeconds(5), true);
		}

	}

}
