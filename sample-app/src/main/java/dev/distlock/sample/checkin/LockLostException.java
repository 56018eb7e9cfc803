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

package dev.distlock.sample.checkin;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a check-in's write is refused because its lock was lost: the lease ran out
 * while the check-in was paused (a long GC, a stalled VM), and a newer holder of the
 * queue's lock has written since. The transaction rolls back, nothing is stored, and the
 * client is answered {@code 409 Conflict} with a {@code Retry-After} (see
 * {@link dev.distlock.sample.web.LockLostAdvice}).
 */
public class LockLostException extends RuntimeException {

	private final Gender gender;

	private final long fencingToken;

	/**
	 * Creates the exception.
	 * @param gender the queue
	 * @param fencingToken the caller's fencing token, older than the queue's fence
	 */
	public LockLostException(Gender gender, long fencingToken) {
		this(gender, fencingToken, null);
	}

	/**
	 * Creates the exception for a write the store refused.
	 * @param gender the queue
	 * @param fencingToken the caller's fencing token, older than the queue's fence
	 * @param cause the refusal, such as distlock's
	 * {@link dev.distlock.fencing.StaleFencingTokenException}, or {@code null}
	 */
	public LockLostException(Gender gender, long fencingToken, @Nullable Throwable cause) {
		super("The lock of the " + gender + " check-in queue was lost: a holder with a newer fencing token than "
				+ fencingToken + " has written since, so this check-in was refused and nothing was stored", cause);
		this.gender = gender;
		this.fencingToken = fencingToken;
	}

	/**
	 * Returns the queue.
	 * @return the queue whose lock was lost
	 */
	public Gender getGender() {
		return this.gender;
	}

	/**
	 * Returns the fencing token the refused write carried.
	 * @return the stale fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
