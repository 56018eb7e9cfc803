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

package dev.distlock.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Grants the fencing tokens of one in-memory client: every grant, of any key, takes a
 * number greater than every one before it. As with the Redis client's counter, a token
 * never falls below the wall clock in microseconds, so that a client created again (a
 * restarted application context, the next run of a development server) goes on above the
 * tokens its predecessor granted, and a fenced resource that outlives the client keeps
 * accepting its writes.
 */
final class FencingTokens {

	private final AtomicLong last = new AtomicLong();

	/**
	 * Takes the next token.
	 * @return a token greater than every one returned before
	 */
	long next() {
		long clock = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		return this.last.accumulateAndGet(clock, (previous, now) -> Math.max(previous + 1, now));
	}

}
