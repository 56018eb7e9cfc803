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
