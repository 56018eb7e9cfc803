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

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.HandOverMessage;

/**
 * Decides how an acquirer waits for a lock that someone else holds. A waiter either
 * retries (backoff) or takes a place in the lock's queue in Redis, giving a channel on
 * which it is told that a release handed it the lock. Either way a wait that ends without
 * a hand-over is followed by another attempt, never by an assumption, so an early or
 * spurious end only costs one attempt.
 */
@FunctionalInterface
public interface LockWaiter {

	/**
	 * Starts one acquisition's wait for a lock, before its first attempt. A wait that
	 * gives a channel registers for messages when first asked for it, before the attempt
	 * that may queue, so that a hand-over announced right after that attempt is not
	 * missed.
	 * @param key the Redis key of the lock
	 * @param token the owner token of the acquisition, which a hand-over names
	 * @return the wait, to be closed when the acquirer stops waiting
	 */
	Wait begin(String key, String token);

	/**
	 * One acquisition's wait for one lock.
	 */
	interface Wait extends AutoCloseable {

		/**
		 * Returns the channel on which this waiter is told that a release handed it the
		 * lock, so that its attempts take a place in the lock's queue; {@code null} to
		 * stay out of the queue and only retry. Asked before each attempt that may queue
		 * (not before a plain first attempt), so that a waiter may join the queue once
		 * its channel is subscribed. A waiter that gives a channel must end each
		 * {@link #await await} within a second or so: each attempt renews its place,
		 * which lapses a few seconds after the last one (then the waiter is skipped, and
		 * its next attempt queues it again at the end).
		 * @return the channel, or {@code null}
		 */
		default @Nullable String handOverChannel() {
			return null;
		}

		/**
		 * Pauses until a hand-over or until the next attempt is worth making, at the
		 * latest when the holder's lease runs out or the caller's deadline passes.
		 * @param holderLeaseMillis the holder's remaining lease, as the failed attempt
		 * reported
		 * @param deadlineNanos the {@link System#nanoTime()} value past which the caller
		 * gives up
		 * @return {@code false} if the thread was interrupted (with its interrupt flag
		 * set again), {@code true} otherwise
		 */
		boolean await(long holderLeaseMillis, long deadlineNanos);

		/**
		 * Returns, once, the hand-over a release announced to this waiter during the last
		 * {@link #await await}, if any. The acquirer decides whether it is still valid.
		 * @return the hand-over, or {@code null} if none arrived
		 */
		default @Nullable HandOverMessage takeHandOver() {
			return null;
		}

		/**
		 * Ends the wait.
		 * @param acquired whether the acquirer got the lock
		 */
		void close(boolean acquired);

		@Override
		default void close() {
			close(false);
		}

	}

}
