package dev.distlock.redis.protocol;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Tells the log, once per quarantine, that Redis grants no lock during a restart
 * quarantine ({@link RestartQuarantine}): callers only see locks they cannot get, as if
 * held, so the reason must be written somewhere.
 */
final class QuarantineNotice {

	private static final Log logger = LogFactory.getLog(RestartQuarantine.class);

	/** Until when, by {@link System#nanoTime()}, the quarantine was last reported. */
	private final AtomicLong reportedUntil = new AtomicLong(System.nanoTime());

	/**
	 * Reports a quarantine that an acquire attempt found, unless one was reported that
	 * has not ended yet.
	 * @param key the Redis key of the lock
	 * @param leftMillis how long the quarantine lasts
	 */
	void found(String key, long leftMillis) {
		long now = System.nanoTime();
		long until = this.reportedUntil.get();
		if (now - until >= 0
				&& this.reportedUntil.compareAndSet(until, now + TimeUnit.MILLISECONDS.toNanos(leftMillis))) {
			logger.warn("Redis lost distlock's state (a restart without persistence, a flush) or is new: it grants no "
					+ "lock for another " + leftMillis + "ms, the rest of its restart quarantine ("
					+ RestartQuarantine.ENABLED_PROPERTY + "), so that no hold granted before the loss overlaps a new "
					+ "one; callers wait for it as for a held lock (found acquiring " + key + ")");
		}
	}

}
