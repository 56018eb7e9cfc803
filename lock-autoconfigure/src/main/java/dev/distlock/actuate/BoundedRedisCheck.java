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

package dev.distlock.actuate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Runs the health indicator's Redis checks on a thread of their own and waits for them at
 * most a given time, so that a health request answers within that time whatever Redis and
 * the command timeout do. A check that has not finished in time goes on in the
 * background; no other starts until it ends, and the requests in between are answered at
 * once that the last one is still running.
 *
 * @param <T> what the checks find out
 */
final class BoundedRedisCheck<T> {

	private final Supplier<T> check;

	private final Duration timeout;

	private @Nullable CompletableFuture<T> running;

	/**
	 * Creates the bounded check.
	 * @param check the checks; each call asks Redis anew
	 * @param timeout how long a health request waits for them
	 */
	BoundedRedisCheck(Supplier<T> check, Duration timeout) {
		this.check = check;
		this.timeout = timeout;
	}

	/**
	 * Runs the checks, unless the last run is still going on, and waits for them.
	 * @return what they found
	 * @throws TimeoutException if they did not finish within the timeout, or the last run
	 * is still going on
	 * @throws RuntimeException what the checks threw
	 */
	T run() throws TimeoutException {
		CompletableFuture<T> started = start();
		if (started == null) {
			throw new TimeoutException("Redis has not yet answered the previous health check, which took longer than "
					+ this.timeout.toMillis() + "ms (distlock.health.timeout)");
		}
		try {
			return started.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new TimeoutException("Redis did not answer the health check within " + this.timeout.toMillis()
					+ "ms (distlock.health.timeout)");
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure
					: new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the Redis health check", ex);
		}
	}

	private synchronized @Nullable CompletableFuture<T> start() {
		if (this.running != null && !this.running.isDone()) {
			return null;
		}
		CompletableFuture<T> started = CompletableFuture.supplyAsync(this.check, BoundedRedisCheck::onOwnThread);
		this.running = started;
		return started;
	}

	/** Runs a check on a daemon thread of its own: at most one runs at a time. */
	private static void onOwnThread(Runnable task) {
		Thread thread = new Thread(task, "distlock-health-check");
		thread.setDaemon(true);
		thread.start();
	}

}
