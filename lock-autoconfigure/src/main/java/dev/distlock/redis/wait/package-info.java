/**
 * How an acquirer waits for a lock someone else holds: with a jittered backoff between
 * attempts ({@link dev.distlock.redis.wait.JitteredBackoffWaiter}), or in the lock's
 * queue in Redis until a release hands it the lock over
 * ({@link dev.distlock.redis.wait.ReleaseMessageWaiter}, fed by the client's
 * {@link dev.distlock.redis.wait.ReleaseSubscription}, or on a cluster by its
 * {@link dev.distlock.redis.wait.ShardedReleaseSubscription} to one sharded channel per
 * slot waited on). {@link dev.distlock.redis.wait.LockWaiter} and
 * {@link dev.distlock.redis.wait.JitteredBackoffWaiter} may be given to the client's
 * builder; the other types are internal to {@code dev.distlock.redis}: public only
 * because its parent package uses them, with no compatibility promise.
 */
@NullMarked
package dev.distlock.redis.wait;

import org.jspecify.annotations.NullMarked;
