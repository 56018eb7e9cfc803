package dev.distlock.redis;

import java.time.Duration;

import dev.distlock.redis.lease.Lease;

/**
 * What an acquisition was granted: the first fencing token of the block reserved for it,
 * the size of the block, when the request that the grant counts from was sent, and how
 * long Redis keeps the lock from then (the lease, or the claim window of a hand-over).
 *
 * @param fencingToken the first fencing token of the block
 * @param block how many fencing tokens were reserved
 * @param sentNanos when the request the grant counts from was sent
 * @param validFor how long Redis keeps the lock from then
 */
record Grant(long fencingToken, int block, long sentNanos, Duration validFor) {

	/**
	 * Whether the grant may have run out already, by the local count (see {@link Lease}).
	 */
	boolean hasRunOut() {
		return System.nanoTime() - Lease.validUntil(this.sentNanos, this.validFor) >= 0;
	}

}
