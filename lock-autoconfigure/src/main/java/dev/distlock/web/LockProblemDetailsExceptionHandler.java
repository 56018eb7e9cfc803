package dev.distlock.web;

import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.MessageSource;
import org.springframework.context.MessageSourceAware;
import org.springframework.core.Ordered;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;

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
 */
@ControllerAdvice
public class LockProblemDetailsExceptionHandler implements MessageSourceAware, Ordered {

	private static final Log logger = LogFactory.getLog(LockProblemDetailsExceptionHandler.class);

	private final LockProblemDetails problems;

	private @Nullable MessageSource messageSource;

	/**
	 * Creates the handler.
	 * @param problems builds the answers
	 */
	public LockProblemDetailsExceptionHandler(LockProblemDetails problems) {
		this.problems = problems;
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
		if (logger.isDebugEnabled()) {
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
