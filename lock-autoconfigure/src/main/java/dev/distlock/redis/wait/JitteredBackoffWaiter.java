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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.springframework.util.Assert;

/**
 * Waits with jittered exponential backoff: the pause starts at the initial delay, doubles
 * with each failed attempt up to the maximum, is drawn at random from its upper half so
 * that waiters spread out, and never runs past the caller's deadline.
 * <p>
 * Spring's {@link org.springframework.util.backoff.ExponentialBackOff} is not used
 * because waiting on the lock path would change: it counts whole milliseconds, so from a
 * 1ms start its first pauses cannot be spread at all; its jitter spreads around the
 * backoff and never below the initial interval, where this draws from the upper half of
 * the backoff; and it draws from the shared {@code Math.random} rather than
 * {@link ThreadLocalRandom}.
 */
public final class JitteredBackoffWaiter implements LockWaiter {

	private static final Duration STANDARD_INITIAL_DELAY = Duration.ofMillis(1);

	private static final Duration STANDARD_MAX_DELAY = Duration.ofMillis(50);

	private final long initialNanos;

	private final long maxNanos;

	/**
	 * Creates a waiter.
	 * @param initialDelay the pause after the first failed attempt
	 * @param maxDelay the longest pause between two attempts
	 */
	public JitteredBackoffWaiter(Duration initialDelay, Duration maxDelay) {
		Assert.isTrue(initialDelay.toNanos() > 0, "initialDelay must be positive");
		Assert.isTrue(maxDelay.compareTo(initialDelay) >= 0, "maxDelay must not be shorter than initialDelay");
		this.initialNanos = initialDelay.toNanos();
		this.maxNanos = maxDelay.toNanos();
	}

	/**
	 * Returns a waiter that starts at 1ms and doubles up to 50ms.
	 * @return the waiter
	 */
	public static JitteredBackoffWaiter standard() {
		return new JitteredBackoffWaiter(STANDARD_INITIAL_DELAY, STANDARD_MAX_DELAY);
	}

	@Override
	public Wait begin(String key, String token) {
		return new Backoff();
	}

	/**
	 * Pauses the current thread, without passing the holder's lease or the deadline.
	 * @param attempt failed attempts so far, starting at 1
	 * @param holderLeaseMillis the holder's remaining lease
	 * @param deadlineNanos when the caller gives up
	 * @return {@code false} if interrupted
	 */
	boolean pause(int attempt, long holderLeaseMillis, long deadlineNanos) {
		long pause = Math.min(pauseFor(attempt), deadlineNanos - System.nanoTime());
		pause = Math.min(pause, TimeUnit.MILLISECONDS.toNanos(Math.max(holderLeaseMillis, 1)));
		if (pause <= 0) {
			return true;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(pause);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * Returns the pause after the given number of failed attempts, before the deadline
	 * cap: what a waiter that must not block a thread (a reactive one) schedules.
	 * @param attempt failed attempts so far, starting at 1
	 * @return the pause in nanoseconds, between half the backoff and the backoff
	 */
	public long pauseFor(int attempt) {
		long backoff = this.initialNanos;
		for (int i = 1; i < attempt && backoff < this.maxNanos; i++) {
			// Doubling past half the maximum would overflow a maximum near
			// Long.MAX_VALUE.
			backoff = (backoff > this.maxNanos / 2) ? this.maxNanos : backoff * 2;
		}
		long half = backoff / 2;
		return half + ThreadLocalRandom.current().nextLong(backoff - half + 1);
	}

	private final class Backoff implements Wait {

		private int attempt;

		@Override
		public boolean await(long holderLeaseMillis, long deadlineNanos) {
			return pause(++this.attempt, holderLeaseMillis, deadlineNanos);
		}

		@Override
		public void close(boolean acquired) {
		}

	}

}
