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

package dev.distlock.redis.wait;

import java.time.Duration;

/**
 * The timings of waiting for a lock, chosen together: a waiter is never silent longer
 * than {@link #MAX_SILENT_WAIT}, its place in a lock's queue outlives several such waits,
 * and a lock handed over to it is kept for it no longer than its place would be.
 */
public final class WaitTimings {

	/**
	 * The longest wait without a message before an attempt is made anyway: the backstop
	 * that bounds the delay a lost hand-over message, or a missed local wake-up, can
	 * cause.
	 */
	public static final Duration MAX_SILENT_WAIT = Duration.ofSeconds(1);

	/**
	 * How long a place in a lock's queue stays valid after the attempt that took or
	 * renewed it: several backstop periods, so that only a waiter that stopped trying is
	 * skipped.
	 */
	public static final Duration QUEUE_ENTRY_TTL = MAX_SILENT_WAIT.multipliedBy(3);

	/**
	 * How long a release keeps a lock it hands over until the new holder confirms it: no
	 * longer than a place's validity, so that a waiter that died in the queue strands the
	 * lock at most this long, whatever its lease.
	 */
	public static final Duration CLAIM_WINDOW = MAX_SILENT_WAIT.multipliedBy(2);

	private WaitTimings() {
	}

}
