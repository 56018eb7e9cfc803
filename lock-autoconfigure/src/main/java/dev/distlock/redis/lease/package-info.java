/**
 * Leases: a hold's local and conservative validity
 * ({@link dev.distlock.redis.lease.Lease}), and the renewal of auto-renewing leases in
 * batches ({@link dev.distlock.redis.lease.LeaseRenewer}), which reports what it finds
 * through a {@link dev.distlock.redis.lease.RenewalListener}, never by calling back into
 * the holds' owner. Internal to {@code dev.distlock.redis}: public only because its
 * parent package uses it, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.lease;

import org.jspecify.annotations.NullMarked;
