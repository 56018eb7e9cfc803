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

import java.net.URI;
import java.time.Duration;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.util.Assert;
import org.springframework.web.ErrorResponse;

import dev.distlock.LockLeaseLostException;
import dev.distlock.LockNotAcquiredException;
import dev.distlock.LockUnavailableException;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Builds the RFC 9457 problem details that answer lock failures, for Spring MVC and
 * WebFlux alike, with the {@linkplain LockProblemTypes types} and statuses documented
 * there. Each names the lock by its logical name in a {@code lock} property, and by its
 * Redis key in a {@code key} property only if asked to: keys can hold request data, such
 * as user or order numbers, while names come from the code. Neither appears in the
 * {@code detail}, which says what happened and what the client can do.
 * <p>
 * Titles and details can be reworded or translated with Spring's message codes for
 * {@link ErrorResponse}, such as
 * {@code problemDetail.dev.distlock.LockNotAcquiredException} and
 * {@code problemDetail.title.dev.distlock.LockNotAcquiredException}, with the lock's name
 * as argument {@code {0}} and the {@code Retry-After} seconds as {@code {1}}; a failed
 * release uses the codes of {@link LockUnavailableException} with the suffix
 * {@code .release}.
 */
public class LockProblemDetails {

	private final long retryAfterSeconds;

	private final boolean includeKey;

	/**
	 * Creates the builder.
	 * @param retryAfter how long clients are asked to wait before retrying, rounded up to
	 * whole seconds
	 * @param includeKey whether problems name the lock's Redis key
	 */
	public LockProblemDetails(Duration retryAfter, boolean includeKey) {
		Assert.isTrue(retryAfter.compareTo(Duration.ZERO) > 0,
				() -> "retryAfter must be more than zero, was " + retryAfter);
		this.retryAfterSeconds = retryAfter.getSeconds() + ((retryAfter.getNano() > 0) ? 1 : 0);
		this.includeKey = includeKey;
	}

	/**
	 * Returns the {@code Retry-After} of the answers that have one.
	 * @return whole seconds, at least 1
	 */
	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	/**
	 * Answers a lock held by another caller beyond the wait time: {@code 409 Conflict}
	 * with {@code Retry-After}, and the time waited as {@code waitedMillis}.
	 * @param ex the failure
	 * @return the answer
	 */
	public ErrorResponse notAcquired(LockNotAcquiredException ex) {
		return retryLater(ex, HttpStatus.CONFLICT, LockProblemTypes.LOCK_NOT_ACQUIRED, "Lock not acquired",
				"The lock this request needs was held by another caller for longer than the request could wait.",
				ex.getName(), ex.getKey())
			.property("waitedMillis", ex.getWaited().toMillis())
			.build();
	}

	/**
	 * Answers Redis being unavailable: {@code 503 Service Unavailable} with
	 * {@code Retry-After} if the locked work did not run; {@code 500} without it if the
	 * work ran and its release failed, as a retry could do the work twice.
	 * @param ex the failure
	 * @return the answer
	 */
	public ErrorResponse unavailable(LockUnavailableException ex) {
		if (!LockUnavailableException.RELEASE.equals(ex.getOperation())) {
			return retryLater(ex, HttpStatus.SERVICE_UNAVAILABLE, LockProblemTypes.LOCK_UNAVAILABLE,
					"Lock service unavailable",
					"The lock service (Redis) is unavailable, so this request was not processed.", ex.getName(),
					ex.getKey())
				.build();
		}
		return builder(ex, HttpStatus.INTERNAL_SERVER_ERROR, LockProblemTypes.LOCK_RELEASE_FAILED,
				"Lock release failed",
				"This request was processed, but the lock service (Redis) became unavailable before its lock was "
						+ "released; the lock expires by itself. Check the outcome before retrying.",
				ex.getName(), ex.getKey())
			.typeMessageCode(ErrorResponse.getDefaultTypeMessageCode(ex.getClass()) + ".release")
			.titleMessageCode(ErrorResponse.getDefaultTitleMessageCode(ex.getClass()) + ".release")
			.detailMessageCode(ErrorResponse.getDefaultDetailMessageCode(ex.getClass(), "release"))
			.build();
	}

	/**
	 * Answers a lease lost before the release: {@code 500 Internal Server Error} without
	 * {@code Retry-After}, as the work ran and may have overlapped with another holder's.
	 * @param ex the failure
	 * @return the answer
	 */
	public ErrorResponse leaseLost(LockLeaseLostException ex) {
		return builder(ex, HttpStatus.INTERNAL_SERVER_ERROR, LockProblemTypes.LOCK_LEASE_LOST, "Lock lease lost",
				"This request was processed, but its lock expired before it was released, so its work may have "
						+ "overlapped with another holder's. Check the outcome before retrying.",
				ex.getName(), ex.getKey())
			.build();
	}

	/**
	 * Answers a fenced write refused for a stale fencing token: {@code 409 Conflict}
	 * without {@code Retry-After}. The data was kept as a later holder of the lock wrote
	 * it; the request's own lease had run out, and its write did not apply.
	 * @param ex the refusal
	 * @return the answer
	 */
	public ErrorResponse staleFencingToken(StaleFencingTokenException ex) {
		return builder(ex, HttpStatus.CONFLICT, LockProblemTypes.STALE_FENCING_TOKEN, "Stale fencing token",
				"This request's lock expired while it worked and another holder of the lock has written since, "
						+ "so its write was refused and the newer data kept. Read the current state before retrying.",
				ex.getLockName(), ex.getLockKey())
			.build();
	}

	private ErrorResponse.Builder builder(Exception ex, HttpStatus status, URI type, String title, String detail,
			String name, String key) {
		ErrorResponse.Builder builder = ErrorResponse.builder(ex, status, detail)
			.type(type)
			.title(title)
			.detailMessageArguments(name, this.retryAfterSeconds)
			.property("lock", name);
		return this.includeKey ? builder.property("key", key) : builder;
	}

	private ErrorResponse.Builder retryLater(Exception ex, HttpStatus status, URI type, String title, String detail,
			String name, String key) {
		String seconds = this.retryAfterSeconds + ((this.retryAfterSeconds == 1) ? " second" : " seconds");
		return builder(ex, status, type, title, detail + " Retry after " + seconds + ".", name, key)
			.header(HttpHeaders.RETRY_AFTER, Long.toString(this.retryAfterSeconds));
	}

}
