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
