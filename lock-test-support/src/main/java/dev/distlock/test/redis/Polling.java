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

package dev.distlock.test.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Waits for a condition of a deployment by asking again with a growing pause (5 ms up to
 * 100 ms) until it holds or a deadline passes. A check that throws counts as not yet
 * true: a node that is starting or has just been killed refuses connections.
 */
final class Polling {

	private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private Polling() {
	}

	/**
	 * Waits until a check returns a value other than {@code null}.
	 * @param <T> the type of the value
	 * @param what what is awaited, for the message on timeout
	 * @param timeout how long to wait
	 * @param check the check, returning {@code null} while the condition does not hold
	 * @return the first value the check returned
	 * @throws IllegalStateException if the deadline passes first, with the last error
	 */
	static <T> T await(String what, Duration timeout, Supplier<@Nullable T> check) {
		long start = System.nanoTime();
		long pause = TimeUnit.MILLISECONDS.toNanos(5);
		RuntimeException lastError = null;
		while (true) {
			try {
				T value = check.get();
				if (value != null) {
					return value;
				}
			}
			catch (RuntimeException ex) {
				lastError = ex;
			}
			if (System.nanoTime() - start > timeout.toNanos()) {
				throw new IllegalStateException(
						"Timed out after " + timeout.toMillis() + " ms waiting for " + what
								+ ((lastError != null) ? " (last error: " + lastError.getMessage() + ")" : ""),
						lastError);
			}
			pause(pause);
			pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
		}
	}

	/**
	 * Waits until a condition holds.
	 * @param what what is awaited, for the message on timeout
	 * @param timeout how long to wait
	 * @param condition the condition
	 * @throws IllegalStateException if the deadline passes first
	 */
	static void awaitTrue(String what, Duration timeout, Supplier<Boolean> condition) {
		await(what, timeout, () -> condition.get() ? Boolean.TRUE : null);
	}

	private static void pause(long nanos) {
		try {
			TimeUnit.NANOSECONDS.sleep(nanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for a Redis deployment", ex);
		}
	}

}
