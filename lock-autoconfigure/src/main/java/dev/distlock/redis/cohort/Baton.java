package dev.distlock.redis.cohort;

import dev.distlock.redis.lease.Lease;

/**
 * What passes from one holder to the next within a client, without Redis: the owner token
 * the lock is held with in Redis, the fencing token of the new hold (the next of the
 * block the grant in Redis reserved), the validity it shares with the previous holder,
 * and the lease.
 *
 * @param token the owner token of the lock in Redis
 * @param fencingToken the fencing token of the new hold
 * @param lease the validity of the new hold, shared with the previous one
 * @param leaseNanos the lease, in nanoseconds
 */
public record Baton(String token, long fencingToken, Lease lease, long leaseNanos) {
}
