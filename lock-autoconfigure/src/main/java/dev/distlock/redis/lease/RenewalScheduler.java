package dev.distlock.redis.lease;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.protocol.DaemonThreads;

/**
 * The thread of one client's renewal rounds: started on first use, it runs a round every
 * renewal period, a round out of turn when asked (after a reconnect), and tasks that must
 * come back after a pause (a confirmation sent again). Once closed, it runs nothing more.
 */
final class RenewalScheduler implements AutoCloseable {

	private final Runnable round;

	private final long periodNanos;

	private volatile @Nullable ScheduledExecutorService scheduler;

	/**
	 * Creates the scheduler of one client.
	 * @param round runs one renewal round; must not throw
	 * @param periodNanos the renewal period: the pause between the end of a round and the
	 * start of the next
	 */
	RenewalScheduler(Runnable round, long periodNanos) {
		this.round = round;
		this.periodNanos = periodNanos;
	}

	/** Whether the thread has been started (and perhaps closed since). */
	boolean isStarted() {
		return this.scheduler != null;
	}

	/**
	 * Starts the thread unless started already: it runs a round every period from then
	 * on.
	 * @return the executor of the thread
	 */
	synchronized ScheduledExecutorService start() {
		ScheduledExecutorService running = this.scheduler;
		if (running == null) {
			running = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("distlock-renewal"));
			running.scheduleWithFixedDelay(this.round, this.periodNanos, this.periodNanos, TimeUnit.NANOSECONDS);
			this.scheduler = running;
		}
		return running;
	}

	/** Runs a round now, on the thread, if it has been started and is not closed. */
	void runRoundSoon() {
		ScheduledExecutorService running = this.scheduler;
		if (running != null) {
			try {
				running.execute(this.round);
			}
			catch (RuntimeException ex) {
				// Closed.
			}
		}
	}

	/** Stops the thread, if it has been started. */
	@Override
	public synchronized void close() {
		ScheduledExecutorService running = this.scheduler;
		if (running != null) {
			running.shutdownNow();
		}
	}

}
