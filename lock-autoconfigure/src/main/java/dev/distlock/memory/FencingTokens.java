package dev.distlock.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Grants the fencing tokens of one in-memory client: every grant, of any key, takes a
 * number greater than every one before it. As with the Redis client's counter, a token
 * never falls below the wall clock in microseconds, so that a client created again (a
 * restarted application context, the next run of a development server) goes on above the
 * tokens its predecessor granted, and a fenced resource that outlives the client keeps
 * accepting its writes.
 */
final class FencingTokens {

	private final AtomicLong last = new AtomicLong();

	/**
	 * Takes the next token.
	 * @return a token greater than every one returned before
	 */
	long next() {
		long clock = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
		return this.last.accumulateAndGet(clock, (previous, now) -> Math.max(previous + 1, now));
	}

}
