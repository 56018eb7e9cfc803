package dev.distlock.sample.web;

import java.net.URI;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;
import dev.distlock.sample.checkin.LockLostException;

/**
 * Answers lock failures with problem details ({@code application/problem+json}) and a
 * {@code Retry-After} header:
 * <ul>
 * <li>{@link LockNotAcquiredException}: {@code 409 Conflict}. Other requests kept the
 * resource locked for longer than this one was willing to wait; retrying later is the
 * right move.</li>
 * <li>{@link LockUnavailableException}: {@code 503 Service Unavailable}. Redis cannot be
 * reached, and nothing that needs a lock can run until it is back.</li>
 * <li>{@link LockLostException}: {@code 409 Conflict}. The request's lock expired while
 * it was being processed and a newer holder has written since, so its write was refused
 * and nothing was stored; a retry gets a new lock.</li>
 * <li>{@link LockLeaseLostException}: {@code 500 Internal Server Error}, without
 * {@code Retry-After}. The work finished and may be stored, but the lock had expired
 * before it was released, so it may have overlapped with another holder's; blindly
 * retrying could apply it twice.</li>
 * </ul>
 * The lock key is not exposed to clients.
 */
@RestControllerAdvice
public class LockFailureAdvice {

	/** Problem type of a lock that was not acquired in time. */
	public static final URI LOCK_NOT_ACQUIRED = URI.create("urn:distlock-sample:problem:lock-not-acquired");

	/** Problem type of a write refused because a newer lock holder has written since. */
	public static final URI LOCK_LOST = URI.create("urn:distlock-sample:problem:lock-lost");

	/** Problem type of work that finished after its lock's lease had expired. */
	public static final URI LOCK_LEASE_LOST = URI.create("urn:distlock-sample:problem:lock-lease-lost");

	/**
	 * Problem type of a lock that could not be asked for because Redis is unreachable.
	 */
	public static final URI LOCK_UNAVAILABLE = URI.create("urn:distlock-sample:problem:lock-unavailable");

	private static final Logger logger = LoggerFactory.getLogger(LockFailureAdvice.class);

	private final long retryAfterSeconds;

	LockFailureAdvice(@Value("${sample.lock-failure.retry-after:1s}") Duration retryAfter) {
		this.retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockNotAcquired(LockNotAcquiredException ex) {
		logger.debug("Answering 409: {}", ex.getMessage());
		return problem(HttpStatus.CONFLICT, LOCK_NOT_ACQUIRED, "Resource busy",
				"Other requests held this resource's lock for longer than this request could wait ("
						+ ex.getWaited().toMillis() + " ms). Retry after " + this.retryAfterSeconds + " second(s).");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockLost(LockLostException ex) {
		logger.warn("Answering 409: {}", ex.getMessage());
		return problem(HttpStatus.CONFLICT, LOCK_LOST, "Lock lost",
				"This request's lock expired while it was being processed and a newer holder has written since, "
						+ "so the request was refused and nothing was stored. Retry after " + this.retryAfterSeconds
						+ " second(s).");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> lockUnavailable(LockUnavailableException ex) {
		logger.warn("Answering 503: {}", ex.getMessage());
		return problem(HttpStatus.SERVICE_UNAVAILABLE, LOCK_UNAVAILABLE, "Lock service unavailable",
				"The lock service (Redis) cannot be reached, so the request was not processed. Retry after "
						+ this.retryAfterSeconds + " second(s).");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> leaseLost(LockLeaseLostException ex) {
		logger.warn("Answering 500: {}", ex.getMessage());
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
				"The request finished, but its lock expired before it was released, so it may have overlapped with "
						+ "another request. Check the resource's state before retrying.");
		problem.setType(LOCK_LEASE_LOST);
		problem.setTitle("Lock lease lost");
		return ResponseEntity.internalServerError().body(problem);
	}

	private ResponseEntity<ProblemDetail> problem(HttpStatus status, URI type, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(type);
		problem.setTitle(title);
		return ResponseEntity.status(status)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(this.retryAfterSeconds))
			.body(problem);
	}

}
