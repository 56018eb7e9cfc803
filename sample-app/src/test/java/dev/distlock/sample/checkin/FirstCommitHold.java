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

package dev.distlock.sample.checkin;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds the first check-in transaction of each gender just before its commit until the
 * second check-in of that gender has read the maximum position: both have then read the
 * same empty queue. Shared by the instances of {@link MisplacedLockCheckInTests}.
 */
final class FirstCommitHold {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final Map<Gender, AtomicInteger> reads = new EnumMap<>(Gender.class);

	private final Map<Gender, CountDownLatch> secondRead = new EnumMap<>(Gender.class);

	FirstCommitHold() {
		for (Gender gender : Gender.values()) {
			this.reads.put(gender, new AtomicInteger());
			this.secondRead.put(gender, new CountDownLatch(1));
		}
	}

	/**
	 * Counts a read of the maximum position of a queue.
	 * @param gender the queue
	 * @return whether it was the first read, whose transaction must
	 * {@link #awaitSecondRead} before it commits
	 */
	boolean read(Gender gender) {
		int read = this.reads.get(gender).incrementAndGet();
		if (read == 2) {
			this.secondRead.get(gender).countDown();
		}
		return read == 1;
	}

	/**
	 * Waits until the second check-in of a queue has read its maximum position.
	 * @param gender the queue
	 * @throws IllegalStateException if it does not in time
	 */
	void awaitSecondRead(Gender gender) {
		try {
			if (!this.secondRead.get(gender).await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("No second " + gender + " check-in read the queue within " + TIMEOUT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted before commit", ex);
		}
	}

}
