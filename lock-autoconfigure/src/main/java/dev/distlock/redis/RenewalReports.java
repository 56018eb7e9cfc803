package dev.distlock.redis;

import dev.distlock.redis.lease.RenewalListener;

/**
 * Turns what renewal finds out into the client's events: a lease that ran out, a token
 * that no longer holds its key (for every hold that shares it), a holder that died, a
 * round that ended.
 */
final class RenewalReports implements RenewalListener<RedisLockHandle> {

	private final LockEvents events;

	private final HeldLocks held;

	RenewalReports(LockEvents events, HeldLocks held) {
		this.events = events;
		this.held = held;
	}

	@Override
	public void leaseLost(RedisLockHandle hold, String reason) {
		this.events.leaseLost(hold, reason);
	}

	@Override
	public void tokenLost(RedisLockHandle hold, String reason) {
		this.held.tokenLost(hold, reason);
	}

	@Override
	public void holderDied(RedisLockHandle hold) {
		this.events.holderDied(hold);
	}

	@Override
	public void renewed(int renewed, int roundTrips) {
		this.events.renewed(renewed, roundTrips);
	}

}
