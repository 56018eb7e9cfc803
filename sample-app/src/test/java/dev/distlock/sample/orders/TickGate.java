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

package dev.distlock.sample.orders;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the instance that runs a tick inside its work until the test opens the gate, so
 * that the other instance's attempt certainly overlaps with it.
 */
final class TickGate {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private volatile CountDownLatch latch = new CountDownLatch(0);

	/**
	 * Closes the gate for the next tick.
	 */
	void close() {
		this.latch = new CountDownLatch(1);
	}

	/**
	 * Opens the gate.
	 */
	void open() {
		this.latch.countDown();
	}

	/**
	 * Waits until the gate is open.
	 * @throws IllegalStateException if it stays closed too long
	 */
	void pass() {
		try {
			if (!this.latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("The tick gate stayed closed for " + TIMEOUT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted at the tick gate", ex);
		}
	}

}
