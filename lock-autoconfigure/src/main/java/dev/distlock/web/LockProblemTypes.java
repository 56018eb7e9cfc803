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

/**
 * The {@code type} URIs of the problem details that answer lock failures. They identify a
 * kind of failure, so that clients can tell a busy lock from the application's own
 * {@code 409} answers; they are names, not addresses to fetch. They never change. Each
 * has one status and one meaning, described in docs/failures-and-http.md#http-answers.
 */
public final class LockProblemTypes {

	/**
	 * {@code 409 Conflict}, with {@code Retry-After}: another caller held the lock for
	 * longer than the request's wait time. The locked work did not run.
	 */
	public static final URI LOCK_NOT_ACQUIRED = URI.create("https://distlock.dev/problems/lock-not-acquired");

	/**
	 * {@code 503 Service Unavailable}, with {@code Retry-After}: Redis could not be
	 * reached or failed, so the lock could not be asked for. The locked work did not run.
	 */
	public static final URI LOCK_UNAVAILABLE = URI.create("https://distlock.dev/problems/lock-unavailable");

	/**
	 * {@code 500 Internal Server Error}: the locked work ran, but Redis could not be
	 * reached to release its lock, which expires with its lease.
	 */
	public static final URI LOCK_RELEASE_FAILED = URI.create("https://distlock.dev/problems/lock-release-failed");

	/**
	 * {@code 500 Internal Server Error}: the locked work ran, but the lock's lease
	 * expired before it was released, so the work may have overlapped with another
	 * holder's.
	 */
	public static final URI LOCK_LEASE_LOST = URI.create("https://distlock.dev/problems/lock-lease-lost");

	/**
	 * {@code 409 Conflict}: a fenced write of the request was refused, because a later
	 * holder of its lock had written with a newer fencing token; the request's lease had
	 * run out while it worked.
	 */
	public static final URI STALE_FENCING_TOKEN = URI.create("https://distlock.dev/problems/stale-fencing-token");

	private LockProblemTypes() {
	}

}
