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

package dev.distlock.faults;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks the current thread for a time or until an instant of {@link System#nanoTime()}:
 * the length of a fault or of a hold, never a wait for something to happen.
 */
public final class Pause {

	private Pause() {
	}

	/**
	 * Parks for the given time.
	 * @param millis how long
	 */
	public static void millis(long millis) {
		until(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
	}

	/**
	 * Parks until the given instant.
	 * @param deadlineNanos the {@link System#nanoTime()} to wake at
	 */
	public static void until(long deadlineNanos) {
		long remaining;
		while ((remaining = deadlineNanos - System.nanoTime()) > 0) {
			LockSupport.parkNanos(remaining);
			if (Thread.interrupted()) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
