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

package dev.distlock.web;

import java.util.UUID;
import java.util.function.Consumer;

import jakarta.servlet.ServletException;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.distlock.DistributedLockException;
import dev.distlock.LockHandle;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.test.redis.RedisTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application keeps the last word on how lock failures are answered: its own
 * {@code @ExceptionHandler} for a lock exception, or for a supertype of it, answers
 * instead of distlock's, and {@code distlock.web.problem-details.enabled=false} leaves
 * the exceptions to the application's error handling, as if distlock had no handler.
 */
class ApplicationLockAnswersTests {

	@Test
	void applicationAdviceForTheExceptionAnswersInstead() {
		answerToBusyLock(ForNotAcquired.class, (result) -> {
			assertThat(result).hasStatus(HttpStatus.TOO_MANY_REQUESTS).hasBodyTextEqualTo("busy: stock");
			assertThat(result).doesNotContainHeader("Retry-After");
		});
	}

	@Test
	void applicationAdviceForASupertypeAnswersInstead() {
		answerToBusyLock(ForAllLockFailures.class, (result) -> assertThat(result).hasStatus(HttpStatus.BAD_GATEWAY)
			.hasBodyTextEqualTo("lock failure: LockNotAcquiredException"));
	}

	@Test
	void switchedOffLeavesTheExceptionToTheApplication() {
		String sku = UUID.randomUUID().toString();
		LockedWebApplication.servlet(RedisTestServers.shared())
			.withPropertyValues("distlock.web.problem-details.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class);
				try (OtherInstance other = new OtherInstance(RedisTestServers.shared(), "");
						LockHandle held = other.lock("web:stock:" + sku)) {
					MvcTestResult result = MockMvcTester.from(context).post().uri("/stock/" + sku).exchange();
					assertThat(result).hasFailed()
						.failure()
						.as("left to the servlet container's error handling")
						.isInstanceOf(ServletException.class)
						.cause()
						.isInstanceOf(LockNotAcquiredException.class);
				}
			});
	}

	private void answerToBusyLock(Class<?> advice, Consumer<MvcTestResult> assertions) {
		String sku = UUID.randomUUID().toString();
		LockedWebApplication.servlet(RedisTestServers.shared()).withUserConfiguration(advice).run((context) -> {
			assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class);
			try (OtherInstance other = new OtherInstance(RedisTestServers.shared(), "");
					LockHandle held = other.lock("web:stock:" + sku)) {
				assertions.accept(MockMvcTester.from(context).post().uri("/stock/" + sku).exchange());
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ForNotAcquired {

		@Bean
		NotAcquiredAdvice notAcquiredAdvice() {
			return new NotAcquiredAdvice();
		}

	}

	@RestControllerAdvice
	static class NotAcquiredAdvice {

		@ExceptionHandler
		ResponseEntity<String> busy(LockNotAcquiredException ex) {
			return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("busy: " + ex.getName());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ForAllLockFailures {

		@Bean
		AllLockFailuresAdvice allLockFailuresAdvice() {
			return new AllLockFailuresAdvice();
		}

	}

	@RestControllerAdvice
	static class AllLockFailuresAdvice {

		@ExceptionHandler
		ResponseEntity<String> failed(DistributedLockException ex) {
			return ResponseEntity.status(HttpStatus.BAD_GATEWAY).body("lock failure: " + ex.getClass().getSimpleName());
		}

	}

}
