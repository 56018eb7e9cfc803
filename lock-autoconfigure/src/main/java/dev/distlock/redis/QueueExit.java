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

package dev.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.distlock.redis.protocol.PendingReleases;

/**
 * How one acquisition lets go of what it may have in Redis when it ends without the lock:
 * its place in the lock's queue, and the lock itself if a release handed it over
 * meanwhile or an attempt whose reply was lost took it. Released by owner token, so it
 * never touches anyone else's lock, and retried in the background until Redis answers or
 * the lease has surely run out.
 */
final class QueueExit {

	/**
	 * How long an acquirer that gives up waits for Redis to have taken it out of the
	 * queue.
	 */
	private static final long LEAVE_WAIT_MILLIS = 100;

	private final PendingReleases pending;

	private final String key;

	private final String token;

	private final long leaseMillis;

	QueueExit(PendingReleases pending, String key, String token, long leaseMillis) {
		this.pending = pending;
		this.key = key;
		this.token = token;
		this.leaseMillis = leaseMillis;
	}

	/**
	 * Leaves in the background, without waiting: for an attempt that failed against
	 * Redis.
	 */
	CompletableFuture<Void> inBackground() {
		return this.pending.release(this.key, this.token,
				System.nanoTime() + Duration.ofMillis(this.leaseMillis).toNanos());
	}

	/**
	 * Leaves, waiting briefly for Redis to have done so: a holder that releases right
	 * after this acquirer gave up then no longer hands the lock over to it. An
	 * interrupted thread, or a Redis that does not answer in time, leaves it to the
	 * background.
	 */
	void leave() {
		CompletableFuture<Void> left = inBackground();
		if (Thread.currentThread().isInterrupted()) {
			return;
		}
		try {
			left.get(LEAVE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Left to the background.
		}
	}

}
