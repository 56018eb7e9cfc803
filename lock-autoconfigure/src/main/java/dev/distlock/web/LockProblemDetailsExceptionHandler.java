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

import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.MessageSource;
import org.springframework.context.MessageSourceAware;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Answers the lock failures that reach a controller with the problem details of
 * {@link LockProblemDetails}, in Spring MVC and in WebFlux: both find the
 * {@code @ExceptionHandler} methods of a {@code @ControllerAdvice} bean, and resolve
 * their {@link Locale} argument from the request.
 * <p>
 * It comes last among the advice beans: its order is {@link Ordered#LOWEST_PRECEDENCE},
 * and advice of the same order keep the order of their registration, in which the
 * application's beans come before auto-configured ones. So a controller's or an
 * application advice's {@code @ExceptionHandler} for these exceptions, or for a supertype
 * such as {@code Exception}, answers them instead. It answers only a lock failure that
 * reached the controller as it is: Spring also matches the causes of an exception, and an
 * application exception that wraps a lock failure (after other work, perhaps) is the
 * application's to answer, so it is thrown on.
 * <p>
 * A {@code 503} answer to an unavailable Redis is logged as a warning, with the
 * exception's message (the lock and the address of Redis), the first time for each lock
 * name in each outage ({@link OutageWarnings}); every other answer, a {@code 409} to a
 * busy lock among them, is logged at debug.
 */
@ControllerAdvice
public class LockProblemDetailsExceptionHandler implements MessageSourceAware, Ordered {

	private static final Log logger = LogFactory.getLog(LockProblemDetailsExceptionHandler.class);

	private final LockProblemDetails problems;

	private final OutageWarnings outageWarnings;

	private @Nullable MessageSource messageSource;

	/**
	 * Creates the handler, which logs the first {@code 503} answer of each lock name as a
	 * warning, and no other until the process restarts: use
	 * {@link #LockProblemDetailsExceptionHandler(LockProblemDetails, OutageWarnings)}
	 * with a registered {@link OutageWarnings} to be warned again after each outage.
	 * @param problems builds the answers
	 */
	public LockProblemDetailsExceptionHandler(LockProblemDetails problems) {
		this(problems, new OutageWarnings());
	}

	/**
	 * Creates the handler.
	 * @param problems builds the answers
	 * @param outageWarnings decides which {@code 503} answers are logged as a warning:
	 * the first of each lock name and outage; the others, and every other answer, are
	 * logged at debug
	 */
	public LockProblemDetailsExceptionHandler(LockProblemDetails problems, OutageWarnings outageWarnings) {
		this.problems = problems;
		this.outageWarnings = outageWarnings;
	}

	/**
	 * Answers a lock that another caller held beyond the wait time.
	 * @param ex the failure
	 * @param thrown the exception the controller threw: the failure, or one that wraps it
	 * @param locale the locale of the request, for the message source
	 * @return {@code 409 Conflict} with {@code Retry-After}
	 * @throws Exception the thrown exception, if it only wraps the failure
	 */
	@ExceptionHandler(LockNotAcquiredException.class)
	public ResponseEntity<ProblemDetail> handleLockNotAcquired(LockNotAcquiredException ex, Exception thrown,
			Locale locale) throws Exception {
		return answer(ex, thrown, this.problems.notAcquired(ex), locale);
	}

	/**
	 * Answers Redis being unavailable.
	 * @param ex the failure
	 * @param thrown the exception the controller threw: the failure, or one that wraps it
	 * @param locale the locale of the request, for the message source
	 * @return {@code 503 Service Unavailable} with {@code Retry-After}, or {@code 500} if
	 * the locked work ran and only its release failed
	 * @throws Exception the thrown exception, if it only wraps the failure
	 */
	@ExceptionHandler(LockUnavailableException.class)
	public ResponseEntity<ProblemDetail> handleLockUnavailable(LockUnavailableException ex, Exception thrown,
			Locale locale) throws Exception {
		return answer(ex, thrown, this.problems.unavailable(ex), locale);
	}

	/**
	 * Answers a lease that expired before the release.
	 * @param ex the failure
	 * @param thrown the exception the controller threw: the failure, or one that wraps it
	 * @param locale the locale of the request, for the message source
	 * @return {@code 500 Internal Server Error}
	 * @throws Exception the thrown exception, if it only wraps the failure
	 */
	@ExceptionHandler(LockLeaseLostException.class)
	public ResponseEntity<ProblemDetail> handleLockLeaseLost(LockLeaseLostException ex, Exception thrown, Locale locale)
			throws Exception {
		return answer(ex, thrown, this.problems.leaseLost(ex), locale);
	}

	/**
	 * Answers a fenced write refused for a stale fencing token.
	 * @param ex the refusal
	 * @param thrown the exception the controller threw: the refusal, or one that wraps it
	 * @param locale the locale of the request, for the message source
	 * @return {@code 409 Conflict}
	 * @throws Exception the thrown exception, if it only wraps the refusal
	 */
	@ExceptionHandler(StaleFencingTokenException.class)
	public ResponseEntity<ProblemDetail> handleStaleFencingToken(StaleFencingTokenException ex, Exception thrown,
			Locale locale) throws Exception {
		return answer(ex, thrown, this.problems.staleFencingToken(ex), locale);
	}

	/**
	 * Answers the failure if the controller threw it as it is, and throws on what the
	 * controller threw if that only wraps it.
	 */
	private ResponseEntity<ProblemDetail> answer(Exception ex, Exception thrown, ErrorResponse answer, Locale locale)
			throws Exception {
		if (thrown != ex) {
			throw thrown;
		}
		return answer(ex, answer, locale);
	}

	/**
	 * Resolves the answer's message codes and turns it into a response entity.
	 * @param ex the failure
	 * @param answer the problem details, status and headers
	 * @param locale the locale of the request
	 * @return the response entity
	 */
	protected ResponseEntity<ProblemDetail> answer(Exception ex, ErrorResponse answer, Locale locale) {
		if (answer.getStatusCode().value() == HttpStatus.SERVICE_UNAVAILABLE.value()
				&& ex instanceof LockUnavailableException unavailable
				&& this.outageWarnings.firstOfOutage(unavailable.getName())) {
			logger.warn("Answering " + answer.getStatusCode() + " to requests that need lock '" + unavailable.getName()
					+ "': " + ex.getMessage() + " Further answers for this lock are logged at debug until Redis "
					+ "answers one of its callers again.");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Answering " + answer.getStatusCode() + " to: " + ex.getMessage());
		}
		ProblemDetail body = answer.updateAndGetBody(this.messageSource, locale);
		return ResponseEntity.status(answer.getStatusCode()).headers(answer.getHeaders()).body(body);
	}

	@Override
	public void setMessageSource(MessageSource messageSource) {
		this.messageSource = messageSource;
	}

	/**
	 * Returns the order of this advice among the others.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
