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

package dev.distlock.sample.web;

import java.net.URI;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.distlock.sample.checkin.LockLostException;
import dev.distlock.web.LockProblemDetails;

/**
 * Answers a check-in refused by its fence ({@link LockLostException}) with
 * {@code 409 Conflict} problem details and the {@code Retry-After} of distlock's own
 * answers ({@code distlock.web.retry-after}): the request's lock expired while it was
 * being processed and a newer holder has written since, so nothing was stored, and a
 * retry gets a new lock. distlock answers its own exceptions (lock not acquired, Redis
 * unavailable, lease lost) by itself; this refusal is the sample's. Like distlock's
 * {@link LockProblemDetails}, it exists only in a web application.
 */
@RestControllerAdvice
@ConditionalOnWebApplication
public class LockLostAdvice {

	/** Problem type of a write refused because a newer lock holder has written since. */
	public static final URI LOCK_LOST = URI.create("urn:distlock-sample:problem:lock-lost");

	private static final Logger logger = LoggerFactory.getLogger(LockLostAdvice.class);

	private final long retryAfterSeconds;

	LockLostAdvice(LockProblemDetails lockProblems) {
		this.retryAfterSeconds = lockProblems.retryAfterSeconds();
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockLost(LockLostException ex) {
		logger.warn("Answering 409: {}", ex.getMessage());
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
				"This request's lock expired while it was being processed and a newer holder has written since, so "
						+ "the request was refused and nothing was stored. Retry after " + this.retryAfterSeconds
						+ ((this.retryAfterSeconds == 1) ? " second." : " seconds."));
		problem.setType(LOCK_LOST);
		problem.setTitle("Lock lost");
		return ResponseEntity.status(HttpStatus.CONFLICT)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(this.retryAfterSeconds))
			.body(problem);
	}

}
