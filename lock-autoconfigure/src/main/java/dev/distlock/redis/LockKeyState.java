package dev.distlock.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The state of one lock key in Redis, as a {@link RedisLockMonitor} reads it. It never
 * carries the owner token of whoever holds the key.
 *
 * @param key the Redis key
 * @param held whether the key exists, held by this client or anyone else
 * @param timeToLive how long Redis keeps the key unless it is renewed or released, or
 * {@code null} if the key does not exist or never expires
 * @param heldByThisInstance whether a lock of this instance (this client) holds the key
 * @param hold the lock of this client that holds the key, if one does
 */
public record LockKeyState(String key, boolean held, @Nullable Duration timeToLive, boolean heldByThisInstance,
		@Nullable HeldLockInfo hold) {

}
