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

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpHeaders;

import dev.distlock.LockUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@code Retry-After} is a whole number of seconds, rounded up, at least one; a time that
 * is not more than zero is refused.
 */
class LockProblemDetailsTests {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "PT0.001S, 1", "PT1S, 1", "PT1.001S, 2", "PT1.5S, 2", "PT2S, 2", "PT2M, 120" })
	void retryAfterIsRoundedUpToWholeSeconds(Duration retryAfter, long seconds) {
		LockProblemDetails problems = new LockProblemDetails(retryAfter, false);
		assertThat(problems.retryAfterSeconds()).isEqualTo(seconds);
		assertThat(problems.unavailable(new LockUnavailableException("k", "acquire", new IllegalStateException()))
			.getHeaders()
			.getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo(Long.toString(seconds));
	}

	@ParameterizedTest
	@ValueSource(strings = { "PT0S", "PT-1S" })
	void retryAfterMustBeMoreThanZero(Duration retryAfter) {
		assertThatIllegalArgumentException().isThrownBy(() -> new LockProblemDetails(retryAfter, false))
			.withMessage("retryAfter must be more than zero, was " + retryAfter);
	}

}
