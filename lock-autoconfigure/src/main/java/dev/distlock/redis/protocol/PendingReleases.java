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

package dev.distlock.redis.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.distlock.LockKeyQuoting;

/**
 * Releases, in the background, what a client may have left in Redis when a command's
 * outcome is unknown or a command could not be sent: an acquire whose reply was lost may
 * have taken the lock or a place in its queue, a release that failed left the lock held,
 * and a waiter that gave up may still have a place (and may meanwhile have been handed
 * the lock). Each is released by its owner token, which never touches anyone else's lock,
 * keeps the lock for what is left of a holder's minimum hold as of each attempt's send
 * ({@link MinimumHold}), and is retried with a growing pause until Redis answers or its
 * bound passes (by then the key has expired with its lease). Each goes over the
 * connection of the commands it undoes ({@link #on}): Redis runs the commands of one
 * connection in order, while a release sent on another connection could overtake an
 * acquire still on its way, which would then take the lock for a whole lease. Callers
 * never wait for it: they get their answer or exception at once.
 */
public final class PendingReleases implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(PendingReleases.class);

	private static final long FIRST_RETRY_MILLIS = 50;

	private static final long MAX_RETRY_MILLIS = 500;

	private static final CompletionStage<?> ANSWERED = CompletableFuture.completedFuture(null);

	private final Connection connection;

	private final ScheduledExecutorService executor;

	/**
	 * Creates the background releases of a client, sent with its blocking commands.
	 * @param commands the commands of the client
	 */
	public PendingReleases(RedisLockCommands commands) {
		this((key, token, keepMillis) -> {
			commands.leaveQueue(key, token, keepMillis);
			return ANSWERED;
		}, Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("distlock-pending-releases")));
	}

	private PendingReleases(Connection connection, ScheduledExecutorService executor) {
		this.connection = connection;
		this.executor = executor;
	}

	/**
	 * Returns background releases sent over another connection, on the same thread as
	 * these: those of the commands sent over that connection, so that each reaches Redis
	 * after the command it undoes. Closing either closes both.
	 * @param connection sends the release on the other connection
	 * @return the background releases on that connection
	 */
	public PendingReleases on(Connection connection) {
		return new PendingReleases(connection, this.executor);
	}

	/**
	 * Releases whatever the owner token may hold on the key (the lock, a place in its
	 * queue), retrying until Redis answers or the bound passes; a lock it still holds is
	 * deleted or handed over at once.
	 * @param boundNanos the {@link System#nanoTime()} after which the key has surely
	 * expired
	 * @return completed when the first attempt has ended, whether or not Redis answered
	 * it; a caller that wants Redis to have seen the release before it goes on may wait
	 * for it briefly
	 */
	public CompletableFuture<Void> release(String key, String token, long boundNanos) {
		return release(key, token, MinimumHold.NONE, boundNanos);
	}

	/**
	 * Releases a hold, as {@link #release(String, String, long)}, keeping the lock for
	 * what is left of its minimum hold as of each attempt's send.
	 * @param minimumHold the minimum hold of the hold
	 * @param boundNanos the {@link System#nanoTime()} after which the key has surely
	 * expired
	 * @return completed when the first attempt has ended
	 */
	public CompletableFuture<Void> release(String key, String token, MinimumHold minimumHold, long boundNanos) {
		CompletableFuture<Void> firstAttempt = new CompletableFuture<>();
		submit(new Release(key, token, minimumHold, boundNanos), 0, firstAttempt);
		return firstAttempt;
	}

	private void submit(Release release, long delayMillis, CompletableFuture<Void> firstAttempt) {
		try {
			this.executor.schedule(() -> attempt(release, delayMillis, firstAttempt), delayMillis,
					TimeUnit.MILLISECONDS);
		}
		catch (RuntimeException ex) {
			// Closed: the key expires with its lease.
			firstAttempt.complete(null);
		}
	}

	private void attempt(Release release, long lastDelayMillis, CompletableFuture<Void> firstAttempt) {
		CompletionStage<?> answered;
		try {
			answered = this.connection.release(release.key(), release.token(), release.minimumHold().remainingMillis());
		}
		catch (RuntimeException ex) {
			answered = CompletableFuture.failedFuture(ex);
		}
		answered.whenComplete((answer, failure) -> {
			firstAttempt.complete(null);
			if (failure != null) {
				retry(release, lastDelayMillis, firstAttempt, failure);
			}
		});
	}

	private void retry(Release release, long lastDelayMillis, CompletableFuture<Void> firstAttempt, Throwable failure) {
		if (System.nanoTime() - release.boundNanos() < 0) {
			long delay = Math.min(MAX_RETRY_MILLIS, Math.max(FIRST_RETRY_MILLIS, lastDelayMillis * 2));
			submit(release, delay, firstAttempt);
		}
		else {
			logger.debug("Gave up releasing lock " + LockKeyQuoting.quote(release.key())
					+ " after its lease; it has expired", failure);
		}
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/**
	 * Sends the owner-checked release of a background release on one connection:
	 * {@link RedisLockCommands#leaveQueue}, which answers before it returns, or its
	 * reactive counterpart for what reactive callers sent, which answers later without
	 * holding up the thread of the background releases.
	 */
	@FunctionalInterface
	public interface Connection {

		/**
		 * Takes the token out of the key's queue and releases the lock if the token holds
		 * it, keeping it for the given time if more than 0.
		 * @param key the lock's Redis key
		 * @param token the owner token
		 * @param keepMillis how long the lock must still be kept, 0 for none
		 * @return completes when Redis answered, exceptionally if it did not
		 * @throws RuntimeException if Redis did not answer
		 */
		CompletionStage<?> release(String key, String token, long keepMillis);

	}

	private record Release(String key, String token, MinimumHold minimumHold, long boundNanos) {
	}

}
