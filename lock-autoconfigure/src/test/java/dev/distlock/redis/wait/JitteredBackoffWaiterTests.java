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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * How {@link JitteredBackoffWaiter} spaces attempts.
 */
class JitteredBackoffWaiterTests {

	private final JitteredBackoffWaiter waiter = new JitteredBackoffWaiter(Duration.ofMillis(1), Duration.ofMillis(50));

	@Test
	void pauseDoublesFromTheInitialDelayAndStaysInTheUpperHalf() {
		for (int i = 0; i < 1000; i++) {
			assertThat(this.waiter.pauseFor(1)).isBetween(500_000L, 1_000_000L);
			assertThat(this.waiter.pauseFor(2)).isBetween(1_000_000L, 2_000_000L);
			assertThat(this.waiter.pauseFor(4)).isBetween(4_000_000L, 8_000_000L);
		}
	}

	@Test
	void pauseIsCappedAtTheMaximumForever() {
		assertThat(this.waiter.pauseFor(7)).isBetween(25_000_000L, 50_000_000L);
		assertThat(this.waiter.pauseFor(Integer.MAX_VALUE)).isBetween(25_000_000L, 50_000_000L);
	}

	@Test
	void pauseNeverOverflowsWithTheLongestMaximum() {
		JitteredBackoffWaiter longest = new JitteredBackoffWaiter(Duration.ofNanos(1),
				Duration.ofNanos(Long.MAX_VALUE));
		assertThat(longest.pauseFor(Integer.MAX_VALUE)).isBetween(Long.MAX_VALUE / 2, Long.MAX_VALUE);
	}

	@Test
	void neverSleepsOnceTheDeadlineHasPassed() {
		// An interrupted thread that went to sleep would return false: true proves no
		// sleep.
		Thread.currentThread().interrupt();
		try {
			assertThat(this.waiter.pause(10, 10_000, System.nanoTime() - 1)).isTrue();
		}
		finally {
			assertThat(Thread.interrupted()).isTrue();
		}
	}

	@Test
	void interruptIsReportedAndKept() {
		Thread.currentThread().interrupt();
		try {
			assertThat(this.waiter.pause(10, 10_000, System.nanoTime() + Duration.ofSeconds(5).toNanos())).isFalse();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void neverSleepsPastTheHoldersRemainingLease() {
		// The holder's lease has run out: the pause is cut to at most 1ms, so the
		// interrupted
		// thread either does not sleep (true) or is woken at once (false) but never waits
		// 50ms.
		Thread.currentThread().interrupt();
		long start = System.nanoTime();
		try {
			this.waiter.pause(10, 0, System.nanoTime() + Duration.ofSeconds(5).toNanos());
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.waiter.pauseFor(10)).isGreaterThan(Duration.ofMillis(1).toNanos());
		assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(5).toNanos());
	}

	@Test
	void rejectsAMaximumBelowTheInitialDelay() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JitteredBackoffWaiter(Duration.ofMillis(10), Duration.ofMillis(1)));
	}

}
