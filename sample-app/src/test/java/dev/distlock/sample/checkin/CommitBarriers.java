package dev.distlock.sample.checkin;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes the check-in transactions of each gender wait for each other in pairs just before they
 * commit: a transaction commits only once another one of its gender has also inserted its row.
 * Both have then read the maximum position before either committed.
 */
final class CommitBarriers {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final Map<Gender, CyclicBarrier> barriers = new EnumMap<>(Gender.class);

	CommitBarriers() {
		for (Gender gender : Gender.values()) {
			this.barriers.put(gender, new CyclicBarrier(2));
		}
	}

	/**
	 * Waits until another transaction of the gender arrives too.
	 * @param gender the queue
	 * @throws IllegalStateException if none arrives in time
	 */
	void await(Gender gender) {
		try {
			this.barriers.get(gender).await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted before commit", ex);
		}
		catch (BrokenBarrierException | TimeoutException ex) {
			throw new IllegalStateException("No other " + gender + " check-in reached its commit within " + TIMEOUT, ex);
		}
	}

}
